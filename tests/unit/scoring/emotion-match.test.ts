import { describe, expect, it } from 'vitest';
import { emotionModel } from '../../../src/audio/analysis';
import { CATEGORY_WEIGHT, emotionMatch, goalOf } from '../../../src/audio/scoring/emotion-match';
import { reading } from './synth-voice';

describe('emotionMatch', () => {
  const model = emotionModel();
  const anger = goalOf('anger', model).arousal;
  const sadness = goalOf('sadness', model).arousal;

  it('places an annotated emotion where held-out takes of it land on the arousal scale', () => {
    expect(anger).toBeGreaterThan(0.2);
    expect(sadness).toBeLessThan(-0.2);
    expect(goalOf('neutral', model).arousal).toBeLessThan(anger);
  });

  it('leans on arousal when the category reading is unsure', () => {
    const target = { kind: 'annotated' as const, emotion: 'anger' as const };
    // Unsure, wrong top class, but the energy of anger; against unsure and the energy of sadness.
    const energetic = emotionMatch(reading('fear', 0.3, anger), target, model);
    const flat = emotionMatch(reading('fear', 0.3, sadness), target, model);
    expect(energetic.score).toBeGreaterThan(flat.score + 30);
    expect(energetic.categoryWeight).toBeCloseTo(CATEGORY_WEIGHT * 0.3, 6);
    expect(flat.arousalGap).toBeCloseTo(sadness - anger, 6);
  });

  it('uses the category in proportion to its confidence', () => {
    const target = { kind: 'annotated' as const, emotion: 'anger' as const };
    const sureRight = emotionMatch(reading('anger', 0.95, anger), target, model);
    const sureWrong = emotionMatch(reading('happiness', 0.95, anger), target, model);
    const unsureWrong = emotionMatch(reading('happiness', 0.3, anger), target, model);
    expect(sureRight.score).toBeGreaterThan(sureWrong.score + 30);
    // An unsure wrong label costs much less than a sure one.
    expect(unsureWrong.score).toBeGreaterThan(sureWrong.score + 15);
  });

  it("against an actor, agrees on the actor's arousal and the overlap of the two readings", () => {
    const actor = reading('sadness', 0.8, -0.6);
    const same = emotionMatch(reading('sadness', 0.8, -0.6), { kind: 'actor', reading: actor }, model);
    const louder = emotionMatch(reading('sadness', 0.8, 0.4), { kind: 'actor', reading: actor }, model);
    const other = emotionMatch(reading('anger', 0.8, 0.6), { kind: 'actor', reading: actor }, model);
    expect(same.score).toBeGreaterThan(90);
    expect(louder.arousalGap).toBeCloseTo(1, 6);
    expect(louder.score).toBeLessThan(same.score - 20);
    expect(other.score).toBeLessThan(louder.score);
  });
});
