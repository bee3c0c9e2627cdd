import { describe, expect, it } from 'vitest';
import { analyzeVoice } from '../../../src/audio/analysis';
import { compareVoices } from '../../../src/audio/scoring/compare';
import { emodbTake } from '../fixtures/emodb';

describe('comparison on real speech (EmoDB fixture 15a01Wa)', () => {
  const { x, rate } = emodbTake('15a01Wa.wav');
  const original = analyzeVoice(x, rate);

  it('finds a take identical to the actor identical', () => {
    const c = compareVoices(original, original);
    expect(c.intonation.distanceSt).toBe(0);
    expect(c.intonation.correlation).toBeCloseTo(1, 6);
    expect(c.energy.distanceDb).toBe(0);
    expect(c.timing.onsetDelaySeconds).toBe(0);
    expect(c.timing.durationRatio).toBe(1);
  });

  it('measures a late start and nothing else when the same take begins 0.5 s later', () => {
    const late = new Float32Array(x.length + rate / 2);
    late.set(x, rate / 2);
    const c = compareVoices(analyzeVoice(late, rate), original);
    expect(c.timing.onsetDelaySeconds).toBeGreaterThan(0.45);
    expect(c.timing.onsetDelaySeconds).toBeLessThan(0.55);
    expect(c.intonation.distanceSt).toBeLessThan(0.5);
    expect(c.timing.durationRatio).toBeCloseTo(1, 1);
  });

  it('ignores the level: the same take 12 dB quieter has the same loudness contour', () => {
    const quiet = x.map((v) => v * 0.25);
    const c = compareVoices(analyzeVoice(quiet, rate), original);
    expect(c.energy.distanceDb).toBeLessThan(1);
    expect(c.intonation.distanceSt).toBeLessThan(0.5);
  });

  it('matches the melody of the same line said an octave lower and twice as slowly', () => {
    // Played at half the rate: every frequency halves and the line lasts twice as long, the way a
    // deep, slow voice would say it. Semitones re median and DTW should see the same melody.
    const lowSlow = analyzeVoice(x, rate / 2);
    const c = compareVoices(lowSlow, original);
    expect(lowSlow.figures.pitchMedianHz).toBeLessThan((original.figures.pitchMedianHz ?? 0) * 0.6);
    expect(c.timing.durationRatio).toBeGreaterThan(1.8);
    expect(c.timing.durationRatio).toBeLessThan(2.2);
    expect(c.intonation.distanceSt).toBeLessThan(1.5);
    expect(c.intonation.correlation).toBeGreaterThan(0.7);
    // A different sentence by the same speaker is further away than this transformed copy.
    const other = emodbTake('15a07Fb.wav');
    const d = compareVoices(analyzeVoice(other.x, other.rate), original);
    expect(d.intonation.distanceSt).toBeGreaterThan(c.intonation.distanceSt);
  });
});
