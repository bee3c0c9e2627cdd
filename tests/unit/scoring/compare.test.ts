import { describe, expect, it } from 'vitest';
import { compareVoices, endMovementSt, matchPauses } from '../../../src/audio/scoring/compare';
import { synthVoice } from './synth-voice';

/** A melody in semitones over the normalised time x in [0, 1]: rise to +5, fall to −3 at the end. */
const melody = (x: number) => 5 * Math.sin(Math.PI * x) - 3 * x ** 2;
const voiceWithMelody = (baseHz: number, onset: number, offset: number, shape = melody) =>
  synthVoice({ onset, offset, pitch: (t, s) => baseHz * 2 ** (shape(t / s) / 12) });

describe('compareVoices', () => {
  it('lets a male learner match an actress: same melody an octave lower and 30% slower is close', () => {
    const actress = voiceWithMelody(220, 0.3, 1.5);
    const man = voiceWithMelody(110, 0.3, 1.86);
    const c = compareVoices(man, actress);
    expect(c.intonation.distanceSt).toBeLessThan(0.6);
    expect(c.intonation.correlation).toBeGreaterThan(0.9);
    expect(c.timing.durationRatio).toBeCloseTo(1.3, 1);
  });

  it('finds a monotone learner far from an expressive actor', () => {
    const actor = voiceWithMelody(180, 0.3, 1.7);
    const flat = voiceWithMelody(180, 0.3, 1.7, () => 0);
    const c = compareVoices(flat, actor);
    expect(c.intonation.distanceSt).toBeGreaterThan(1.5);
    expect(c.intonation.learnerRangeSt).toBeLessThan(0.5);
    expect(c.intonation.actorRangeSt).toBeGreaterThan(4);
  });

  it('measures the end of the line rising for one and falling for the other', () => {
    const falling = voiceWithMelody(200, 0.3, 1.7, (x) => -6 * x);
    const rising = voiceWithMelody(200, 0.3, 1.7, (x) => 6 * x);
    const c = compareVoices(rising, falling);
    // 6 st over 1.4 s: the 0.2 s between the tail halves moves about 0.86 st.
    expect(c.intonation.learnerEndMoveSt).toBeGreaterThan(0.5);
    expect(c.intonation.actorEndMoveSt).toBeLessThan(-0.5);
  });

  it('ignores microphone gain: the same loudness contour 20 dB lower has no energy difference', () => {
    const actor = synthVoice();
    const quiet = synthVoice({ loudness: (t, s) => -40 + 6 * Math.sin((2 * Math.PI * t) / s) });
    const c = compareVoices(quiet, actor);
    expect(c.energy.distanceDb).toBeLessThan(0.5);
    expect(Math.abs(c.energy.learnerRangeDb - c.energy.actorRangeDb)).toBeLessThan(0.5);
  });

  it('finds a flat loudness contour far from a strongly stressed one', () => {
    const actor = synthVoice({ loudness: (t, s) => -20 + 8 * Math.sin((2 * Math.PI * t) / s) });
    const flat = synthVoice({ loudness: () => -20 });
    const same = compareVoices(
      synthVoice({ loudness: (t, s) => -26 + 8 * Math.sin((2 * Math.PI * t) / s) }),
      actor,
    );
    const c = compareVoices(flat, actor);
    expect(c.energy.distanceDb).toBeGreaterThan(3);
    expect(same.energy.distanceDb).toBeLessThan(0.5);
    expect(c.energy.correlation).toBeNull();
  });

  it('quotes the analysis figures for the ranges, so tips match the numbers shown', () => {
    const c = compareVoices(
      synthVoice({ figures: { loudnessRangeDb: 21.5, pitchRangeSemitones: 3.2 } }),
      synthVoice(),
    );
    expect(c.energy.learnerRangeDb).toBe(21.5);
    expect(c.intonation.learnerRangeSt).toBe(3.2);
  });

  it('measures onset delay and missing pauses', () => {
    const actor = synthVoice({ onset: 0.3, offset: 1.7, pauses: [{ start: 0.9, end: 1.1 }] });
    const late = synthVoice({ onset: 0.9, offset: 2.3, durationSeconds: 2.5 });
    const c = compareVoices(late, actor);
    expect(c.timing.onsetDelaySeconds).toBeCloseTo(0.6, 5);
    expect(c.timing.actorPauses).toHaveLength(1);
    expect(c.timing.actorPauses[0]).toBeCloseTo(0.5, 1);
    expect(c.timing.missingPauses).toBe(1);
    expect(c.timing.pauseAgreement).toBe(0);
  });
});

describe('matchPauses', () => {
  it.each([
    { learner: [], actor: [], agreement: 1, missing: 0, extra: 0 },
    { learner: [0.5], actor: [0.52], agreement: 1, missing: 0, extra: 0 },
    { learner: [0.2], actor: [0.6], agreement: 0, missing: 1, extra: 1 },
    { learner: [0.3, 0.7], actor: [0.68], agreement: 2 / 3, missing: 0, extra: 1 },
  ])('learner $learner vs actor $actor', ({ learner, actor, agreement, missing, extra }) => {
    const r = matchPauses(learner, actor);
    expect(r.agreement).toBeCloseTo(agreement, 6);
    expect(r.missing).toBe(missing);
    expect(r.extra).toBe(extra);
  });
});

describe('endMovementSt', () => {
  it('measures the rise over the final stretch of a linear glide', () => {
    // 100 points rising 0.1 st each: the tail is 20 points (0.4 s of 20 ms), halves 10 points apart.
    const glide = Float64Array.from({ length: 100 }, (_, i) => 0.1 * i);
    expect(endMovementSt(glide, 0.02)).toBeCloseTo(1.0, 5);
  });

  it('is not thrown by a single octave slip at the very end', () => {
    const fall = Float64Array.from({ length: 100 }, (_, i) => -0.05 * i);
    fall[99] = 12;
    expect(endMovementSt(fall, 0.02)).toBeLessThan(0);
  });

  it('is null with too few voiced points', () => {
    expect(endMovementSt(Float64Array.from([1, Number.NaN, 2]), 0.02)).toBeNull();
  });
});
