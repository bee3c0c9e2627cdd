import { describe, expect, it } from 'vitest';
import { contourOf } from '../../server/films/actor-pitch';

describe("the actor's pitch contour for the guide", () => {
  it('is in semitones re the median voiced pitch, every 20 ms, null where unvoiced', () => {
    // 10 ms frames: 200 Hz, 0 (unvoiced), then 400 Hz (an octave up), then 100 Hz.
    const f0 = [200, 200, 0, 0, 400, 400, 200, 200, 100, 100];
    const c = contourOf(f0, 0.01);
    expect(c.hopSeconds).toBeCloseTo(0.02, 9);
    expect(c.semitones).toEqual([0, null, 12, 0, -12]);
  });
});
