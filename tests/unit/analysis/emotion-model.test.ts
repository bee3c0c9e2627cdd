import { describe, expect, it } from 'vitest';
import { EMOTIONS } from '../../../src/api/contract';
import {
  analyzeVoice,
  classifyEmotion,
  deserializeAnalysis,
  emotionModel,
  FEATURE_NAMES,
  serializeAnalysis,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../../src/audio/analysis';
import { FS, harmonicTone } from './synth';

const voice = (f0: number, vibratoHz: number, amp: number) =>
  analyzeVoice(
    harmonicTone(1.5, (t) => f0 * (1 + 0.05 * Math.sin(2 * Math.PI * vibratoHz * t)), undefined, amp),
    FS,
  );

describe('emotion model file', () => {
  it('is trained on the current feature set and carries provenance and figures', () => {
    const m = emotionModel();
    expect(m.trained).toBe(true);
    expect(m.featureNames).toEqual([...FEATURE_NAMES]);
    expect(m.classes.slice().sort()).toEqual([...EMOTIONS].sort());
    expect(m.provenance.data).toMatch(/EmoDB/);
    expect(m.provenance.data).toMatch(/CC0/);
    expect(m.evaluation).toHaveProperty('normalised');
  });

  it('has its own arousal and valence heads, calibrated temperatures and a label threshold', () => {
    const m = emotionModel();
    for (const set of [m.cold, m.speaker]) {
      expect(set.arousal.layers.at(-1)?.outputs).toBe(2);
      expect(set.valence.layers.at(-1)?.outputs).toBe(2);
      expect(set.category.layers.at(-1)?.outputs).toBe(m.classes.length);
      expect(set.temperature).toBeGreaterThan(0.25);
      expect(set.temperature).toBeLessThan(8);
    }
    expect(m.labelThreshold).toBeGreaterThan(0.5);
    expect(m.labelThreshold).toBeLessThan(1);
    expect(m.arousalGoal.anger).toBeGreaterThan(m.arousalGoal.neutral);
    expect(m.arousalGoal.neutral).toBeGreaterThan(m.arousalGoal.boredom - 0.5);
    expect(m.arousalGoal.happiness).toBeGreaterThan(m.arousalGoal.sadness);
    // A first take says nothing of the voice: the cold heads read no absolute pitch level,
    // formant frequency or MFCC mean.
    expect(m.cold.inputs).not.toContain('f0st_mean');
    expect(m.cold.inputs).not.toContain('f1_v_mean');
    expect(m.cold.inputs).not.toContain('mfcc1_v_mean');
    expect(m.cold.inputs).toContain('f0st_range2080');
    expect(m.speaker.inputs).toContain('f0st_mean');
  });

  it('classifies a synthesised voice deterministically with a proper distribution', () => {
    const a = voice(180, 5, 0.4);
    const p1 = classifyEmotion(a.features);
    const p2 = classifyEmotion(voice(180, 5, 0.4).features);
    expect(p2).toEqual(p1);
    const sum = EMOTIONS.reduce((s, e) => s + p1.probabilities[e], 0);
    expect(sum).toBeCloseTo(1, 9);
    for (const e of EMOTIONS) expect(p1.probabilities[e]).toBeGreaterThanOrEqual(0);
    expect(p1.probabilities[p1.detected]).toBe(Math.max(...EMOTIONS.map((e) => p1.probabilities[e])));
    expect(Math.abs(p1.arousal)).toBeLessThanOrEqual(1);
    expect(Math.abs(p1.valence)).toBeLessThanOrEqual(1);
  });

  it('moves from the cold estimate toward the speaker-normalised one as takes accumulate', () => {
    const takes = [voice(120, 4, 0.2), voice(150, 6, 0.5), voice(100, 3, 0.1), voice(170, 7, 0.6)];
    let stats: SpeakerStats | null = null;
    for (const t of takes) stats = updateSpeakerStats(stats, t.features);
    const probe = takes[1].features;
    const cold = classifyEmotion(probe, null);
    const warm = classifyEmotion(probe, stats);
    expect(classifyEmotion(probe, { count: 0, mean: stats!.mean, m2: stats!.m2 })).toEqual(cold);
    expect(warm).not.toEqual(cold);
  });

  it('rejects a feature vector of the wrong length', () => {
    expect(() => classifyEmotion(new Float64Array(3))).toThrow(/features/);
  });
});

describe('speaker statistics', () => {
  it('match the batch mean and variance (Welford)', () => {
    const rows = [
      [1, 10],
      [2, 14],
      [6, 9],
      [3, 3],
    ];
    let s: SpeakerStats | null = null;
    for (const r of rows) s = updateSpeakerStats(s, Float64Array.from(r));
    expect(s!.count).toBe(4);
    expect(s!.mean[0]).toBeCloseTo(3, 12);
    expect(s!.mean[1]).toBeCloseTo(9, 12);
    expect(s!.m2[0] / 4).toBeCloseTo(3.5, 12); // population variance of 1,2,6,3
    expect(s!.m2[1] / 4).toBeCloseTo(15.5, 12);
  });

  it('does not mutate the previous statistics', () => {
    const first = updateSpeakerStats(null, Float64Array.from([1, 2]));
    const copy = structuredClone(first);
    updateSpeakerStats(first, Float64Array.from([5, 6]));
    expect(first).toEqual(copy);
  });
});

describe('serialisation', () => {
  it('round-trips through JSON', () => {
    const a = voice(200, 5, 0.3);
    const back = deserializeAnalysis(JSON.parse(JSON.stringify(serializeAnalysis(a))));
    expect(Array.from(back.features)).toEqual(Array.from(a.features));
    expect(back.figures).toEqual(a.figures);
    expect(back.segments).toEqual(a.segments);
    expect(back.frames.f0Hz.length).toBe(a.frames.f0Hz.length);
    for (let i = 0; i < a.frames.f0Hz.length; i++)
      expect(back.frames.f0Hz[i]).toBeCloseTo(a.frames.f0Hz[i], 1);
    expect(classifyEmotion(back.features)).toEqual(classifyEmotion(a.features));
  });

  it('maps features by name, so a missing feature becomes unknown rather than shifting the rest', () => {
    const s = serializeAnalysis(voice(200, 5, 0.3));
    s.featureNames = s.featureNames.slice(1);
    s.features = s.features.slice(1);
    const back = deserializeAnalysis(s);
    expect(Number.isNaN(back.features[0])).toBe(true);
    expect(back.features[1]).toBe(s.features[0]);
    expect(() => classifyEmotion(back.features)).not.toThrow();
  });
});
