import { describe, expect, it } from 'vitest';
import { createDotKernel, DOT_BLOCK, padToDotBlock } from '../../../src/audio/dsp/dot';
import { noise } from './signals';

/** Σ a·b in float64, and Σ |a·b| (the scale float32 rounding is relative to). */
function reference(x: Float32Array, a: number, b: number, n: number): { sum: number; scale: number } {
  let sum = 0;
  let scale = 0;
  for (let k = 0; k < n; k++) {
    sum += x[a + k] * x[b + k];
    scale += Math.abs(x[a + k] * x[b + k]);
  }
  return { sum, scale };
}

describe.each([true, false])('dot-product kernel (simd: %s)', (simd) => {
  it('runs the kernel asked for (Node has WebAssembly SIMD)', () => {
    expect(createDotKernel(64, { simd }).kind).toBe(simd ? 'simd' : 'js');
  });

  it('sums products at any (unaligned) offsets for every length that is a whole number of blocks', () => {
    const k = createDotKernel(4096, { simd });
    k.f32.set(noise(4096, 11));
    let checked = 0;
    for (const n of [0, DOT_BLOCK, 2 * DOT_BLOCK, padToDotBlock(242), padToDotBlock(615), 1024]) {
      for (const [a, b] of [
        [0, 0],
        [1, 27],
        [3, 1000],
        [2047, 5],
      ]) {
        const want = reference(k.f32, a, b, n);
        expect(Math.abs(k.dot(a, b, n) - want.sum)).toBeLessThanOrEqual(1e-6 * want.scale + 1e-12);
        checked++;
      }
    }
    expect(checked).toBe(24);
  });

  it('keeps its contents and keeps working when its memory grows', () => {
    const k = createDotKernel(2 * DOT_BLOCK, { simd });
    k.f32.set(noise(2 * DOT_BLOCK, 2));
    const before = k.dot(0, DOT_BLOCK, DOT_BLOCK);
    k.reserve(100_000);
    expect(k.f32.length).toBeGreaterThanOrEqual(100_000);
    expect(k.dot(0, DOT_BLOCK, DOT_BLOCK)).toBe(before);
    k.f32.set(noise(1024, 3), 90_000);
    const want = reference(k.f32, 90_000, 90_100, 512);
    expect(Math.abs(k.dot(90_000, 90_100, 512) - want.sum)).toBeLessThanOrEqual(1e-6 * want.scale);
  });
});

it('pads lengths to whole blocks', () => {
  const padded = [0, 1, DOT_BLOCK, DOT_BLOCK + 1, 242].map(padToDotBlock);
  expect(padded).toEqual([0, DOT_BLOCK, DOT_BLOCK, 2 * DOT_BLOCK, Math.ceil(242 / DOT_BLOCK) * DOT_BLOCK]);
  expect(padded.every((n) => n % DOT_BLOCK === 0)).toBe(true);
});
