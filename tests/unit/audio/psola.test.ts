import { describe, expect, it } from 'vitest';
import { analyzeVoice } from '../../../src/audio/analysis';
import { nearestMark, type PsolaPlan, pitchMarks, psola } from '../../../src/audio/dsp/psola';

const RATE = 16_000;

/** A voice-like tone: ten harmonics falling 1/k, so it has pulses to mark and a spectrum to keep. */
function buzz(f0: number, seconds: number, amplitude = 0.4): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (let k = 1; k <= 10; k++) v += Math.sin((2 * Math.PI * k * f0 * i) / RATE) / k;
    out[i] = (amplitude * v) / 2;
  }
  return out;
}

function constantTrack(f0: number, seconds: number): Float32Array {
  return new Float32Array(Math.ceil(seconds / 0.01)).fill(f0);
}

/** Median f0 (Hz) our tracker reads over the middle 80 % of a signal (edges hold half grains). */
function trackedMedianHz(x: Float32Array): number {
  const f0 = analyzeVoice(x, RATE).frames.f0Hz;
  const lo = Math.floor(f0.length * 0.1);
  const hi = Math.ceil(f0.length * 0.9);
  const voiced = Array.from(f0.subarray(lo, hi)).filter((f) => f > 0);
  expect(voiced.length).toBeGreaterThan((hi - lo) * 0.9);
  voiced.sort((a, b) => a - b);
  return voiced[voiced.length >> 1];
}

function plan(length: number, over: Partial<PsolaPlan>): PsolaPlan {
  return { outputLength: length, sourceTime: (t) => t, targetF0: () => 0, gain: () => 1, ...over };
}

describe('pitch marks', () => {
  it('sit one period apart on a steady tone', () => {
    const x = buzz(125, 0.5);
    const marks = pitchMarks(x, RATE, constantTrack(125, 0.5), 0.01);
    const gaps = Array.from(marks.position.subarray(1)).map((p, i) => p - marks.position[i]);
    expect(gaps.length).toBeGreaterThan(50);
    for (const g of gaps) expect(g).toBeCloseTo(RATE / 125, -0.5);
    expect(marks.voiced.every((v) => v === 1)).toBe(true);
  });

  it('fall back to 10 ms steps where the track says unvoiced', () => {
    const x = buzz(125, 0.3);
    const marks = pitchMarks(x, RATE, new Float32Array(30), 0.01);
    expect(marks.voiced.every((v) => v === 0)).toBe(true);
    expect(marks.position[1] - marks.position[0]).toBe(160);
  });

  it('are found by nearest position', () => {
    const position = Int32Array.from([0, 100, 200, 300]);
    expect(nearestMark(position, 149)).toBe(1);
    expect(nearestMark(position, 151)).toBe(2);
    expect(nearestMark(position, -5)).toBe(0);
    expect(nearestMark(position, 999)).toBe(3);
  });
});

describe('TD-PSOLA', () => {
  const x = buzz(150, 1.2);
  const marks = pitchMarks(x, RATE, constantTrack(150, 1.2), 0.01);

  it.each([-7, -3, 4, 9])('moves a tone by %i semitones and it lands there', (n) => {
    const target = 150 * 2 ** (n / 12);
    const y = psola(x, RATE, marks, plan(x.length, { targetF0: () => target }));
    const moved = 12 * Math.log2(trackedMedianHz(y) / 150);
    expect(moved).toBeGreaterThan(n - 0.25);
    expect(moved).toBeLessThan(n + 0.25);
  });

  it('stretches a tone by half again and keeps its pitch', () => {
    const y = psola(x, RATE, marks, plan(Math.round(x.length * 1.5), { sourceTime: (t) => t / 1.5 }));
    expect(y.length).toBe(Math.round(x.length * 1.5));
    expect(Math.abs(12 * Math.log2(trackedMedianHz(y) / 150))).toBeLessThan(0.25);
  });

  it('gives the input back when nothing is asked of it, with no jump larger than the input has', () => {
    const y = psola(x, RATE, marks, plan(x.length, {}));
    let num = 0;
    let dx = 0;
    let dy = 0;
    let stepX = 0;
    let stepY = 0;
    for (let i = 400; i < x.length - 400; i++) {
      num += x[i] * y[i];
      dx += x[i] * x[i];
      dy += y[i] * y[i];
      stepX = Math.max(stepX, Math.abs(x[i] - x[i - 1]));
      stepY = Math.max(stepY, Math.abs(y[i] - y[i - 1]));
    }
    expect(num / Math.sqrt(dx * dy)).toBeGreaterThan(0.99);
    expect(stepY).toBeLessThanOrEqual(stepX * 1.05);
    expect(y.every((v) => Number.isFinite(v))).toBe(true);
  });

  it('applies the gain it is given', () => {
    const y = psola(x, RATE, marks, plan(x.length, { gain: () => 0.5 }));
    const rms = (s: Float32Array) =>
      Math.sqrt(s.subarray(800, -800).reduce((a, v) => a + v * v, 0) / (s.length - 1600));
    expect(rms(y) / rms(x)).toBeCloseTo(0.5, 1);
  });
});
