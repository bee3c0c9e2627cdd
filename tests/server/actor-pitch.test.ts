import { describe, expect, it } from 'vitest';
import { contourOf } from '../../server/films/actor-pitch';

describe("the actor's pitch contour for the guide", () => {
  it('is in semitones re the median voiced pitch, every 20 ms, null where unvoiced', () => {
    // 10 ms frames in 40 ms runs (long enough to count as voice): 200 Hz, unvoiced, 300 Hz, 200 Hz, 150 Hz.
    const run = (hz: number) => Array<number>(4).fill(hz);
    const f0 = [...run(200), ...run(0), ...run(300), ...run(200), ...run(150)];
    const c = contourOf(f0, 0.01);
    expect(c.hopSeconds).toBeCloseTo(0.02, 9);
    expect(c.semitones).toEqual([0, 0, null, null, 7, 7, 0, 0, -5, -5]);
  });

  it('reads a short upward octave slip at the pitch it belongs to, not an octave up', () => {
    // A 20 ms stretch at twice the pitch inside a 200 Hz line (a doubling error, docs/model.md).
    const f0 = [...Array<number>(10).fill(200), 400, 400, ...Array<number>(10).fill(200)];
    const c = contourOf(f0, 0.01);
    expect(c.semitones.every((st) => st === null || Math.abs(st) < 1)).toBe(true);
    expect(c.semitones.filter((st) => st !== null).length).toBeGreaterThanOrEqual(10);
  });
});
