import { describe, expect, it } from 'vitest';
import { DtwWorkspace, dtw } from '../../../src/audio/scoring/dtw';

/** A smooth bump centred at `centre` (0–1) sampled at n points. */
function bump(n: number, centre: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => Math.exp(-(((i / (n - 1) - centre) / 0.08) ** 2)));
}

function expectMonotonePath(pathA: Int32Array, pathB: Int32Array, n: number, m: number): void {
  expect([pathA[0], pathB[0]]).toEqual([0, 0]);
  expect([pathA[pathA.length - 1], pathB[pathB.length - 1]]).toEqual([n - 1, m - 1]);
  for (let k = 1; k < pathA.length; k++) {
    const da = pathA[k] - pathA[k - 1];
    const db = pathB[k] - pathB[k - 1];
    expect(da === 0 || da === 1).toBe(true);
    expect(db === 0 || db === 1).toBe(true);
    expect(da + db).toBeGreaterThan(0);
  }
}

describe('dtw', () => {
  it('aligns a sequence with itself along the diagonal at zero cost', () => {
    const a = bump(50, 0.5);
    const r = dtw(a, a);
    expect(r.cost).toBe(0);
    expect(Array.from(r.pathA)).toEqual(Array.from(r.pathB));
    expect(r.pathA.length).toBe(50);
  });

  it('absorbs a tempo change: a 1.5× slower copy aligns with a small mean distance', () => {
    const a = bump(60, 0.4);
    const b = bump(90, 0.4);
    const aligned = dtw(a, b, { band: 0.3 });
    expectMonotonePath(aligned.pathA, aligned.pathB, 60, 90);
    expect(aligned.normalizedCost).toBeLessThan(0.02);
    // Without warping (frame i against frame i) the same data differs far more.
    let naive = 0;
    for (let i = 0; i < 60; i++) naive += Math.abs(a[i] - b[i]);
    expect(naive / 60).toBeGreaterThan(5 * aligned.normalizedCost);
  });

  it('maps a peak onto the peak of the other sequence when it comes later', () => {
    const a = bump(80, 0.3);
    const b = bump(80, 0.5);
    const r = dtw(a, b, { band: 0.4 });
    const peakA = 0.3 * 79;
    const k = Array.from(r.pathA).findIndex((i) => i >= Math.round(peakA));
    expect(Math.abs(r.pathB[k] - Math.round(0.5 * 79))).toBeLessThanOrEqual(2);
  });

  it('ignores a dimension with zero weight', () => {
    const n = 40;
    const a = new Float64Array(n * 2);
    const b = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      a[2 * i] = Math.sin(i / 5);
      b[2 * i] = Math.sin(i / 5);
      a[2 * i + 1] = 100 * Math.random();
      b[2 * i + 1] = -100 * Math.random();
    }
    expect(dtw(a, b, { dims: 2, weights: [1, 0] }).cost).toBe(0);
    expect(dtw(a, b, { dims: 2, weights: [1, 1] }).cost).toBeGreaterThan(0);
  });

  it('stays near the diagonal when a step penalty is set and the data are flat', () => {
    const flat = new Float64Array(30);
    const flat2 = new Float64Array(45);
    const r = dtw(flat, flat2, { stepPenalty: 0.1 });
    // Shortest legal path: max(n, m) steps.
    expect(r.pathA.length).toBe(45);
  });

  it('reuses its workspace across calls of different sizes', () => {
    const ws = new DtwWorkspace();
    const big = ws.align(bump(100, 0.5), bump(120, 0.5));
    const small = ws.align(bump(10, 0.5), bump(10, 0.5));
    expect(big.pathA.length).toBeGreaterThanOrEqual(120);
    expect(small.cost).toBe(0);
  });

  it('rejects an empty sequence', () => {
    expect(() => dtw(new Float64Array(0), bump(5, 0.5))).toThrow(RangeError);
  });
});
