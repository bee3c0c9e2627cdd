import { describe, expect, it } from 'vitest';
import { speechScore } from '../../../src/api/contract';
import { emotionModel } from '../../../src/audio/analysis';
import { buildSpeechScore, CONTOUR_POINTS, type ScoreInput } from '../../../src/audio/scoring/score';
import { reading, silentVoice, synthVoice } from './synth-voice';

const melody = (x: number) => 5 * Math.sin(Math.PI * x) - 3 * x ** 2;

function input(over: Partial<ScoreInput> = {}): ScoreInput {
  const actor = synthVoice({ pitch: (t, s) => 220 * 2 ** (melody(t / s) / 12) });
  return {
    takeId: 'take-0001',
    subtitlesId: 'film-1',
    filmId: 'film',
    attempt: 1,
    audioUrl: '/ai/takes/x.wav',
    createdAt: '2026-01-01T00:00:00.000Z',
    learner: synthVoice({ pitch: (t, s) => 120 * 2 ** (melody(t / s) / 12) }),
    learnerEmotion: reading('anger', 0.8, 0.7, -0.5),
    actor,
    actorEmotion: reading('anger', 0.9, 0.8, -0.6),
    targetEmotion: null,
    ...over,
  };
}

describe('buildSpeechScore', () => {
  it('produces a contract-valid result with plot contours of at most 100 points', () => {
    const s = buildSpeechScore(input());
    expect(() => speechScore.parse(s)).not.toThrow();
    expect(s.contours.t.length).toBeLessThanOrEqual(CONTOUR_POINTS);
    expect(s.contours.actorPitch).toHaveLength(s.contours.t.length);
    expect(s.emotion.targetSource).toBe('actor');
    expect(s.emotion.target).toBe('anger');
    expect(s.tips.length).toBeGreaterThanOrEqual(2);
    expect(s.tips.length).toBeLessThanOrEqual(3);
  });

  it('scores a close imitation well above a flat, slow, wrong-emotion take', () => {
    const good = buildSpeechScore(input());
    const bad = buildSpeechScore(
      input({
        learner: synthVoice({ offset: 2.6, durationSeconds: 3, pitch: () => 120, loudness: () => -20 }),
        learnerEmotion: reading('sadness', 0.8, -0.5, -0.6),
      }),
    );
    expect(good.overall).toBeGreaterThan(75);
    expect(bad.overall).toBeLessThan(good.overall - 30);
    for (const k of ['emotion', 'intonation', 'energy', 'timing'] as const) {
      expect(bad.scores[k]).toBeLessThan(good.scores[k]);
    }
  });

  it('writes version 3 facts: named and a percentage only as the rule allows; versions 1 and 2 still parse', () => {
    const s = buildSpeechScore(input({ learnerEmotion: reading('anger', 0.99, 0.7, -0.5) }));
    expect(s.version).toBe(3);
    const naming = emotionModel().naming;
    expect(s.emotion.named).toBe(Boolean(naming?.cold.anger && naming.cold.anger <= 0.99));
    expect(s.emotion.reading).toBe('cold');
    // No percentage unless the rule says it holds; `clear` (v2 readers) only with one.
    expect('confidence' in s.emotion).toBe(Boolean(s.emotion.named && naming?.showPercentage));
    expect(s.emotion.clear).toBe('confidence' in s.emotion);
    expect(s.emotion.targetArousal).toBeCloseTo(0.8, 3);
    expect(s.emotion.arousalGap).toBeCloseTo(-0.1, 3);
    expect(s.emotion.energyAgreement).toBeCloseTo(0.95, 3);
    expect(s.emotion.categoryAgreement).toBeGreaterThan(0.9);
    expect(s.deliveryLikeness).toBe(true);
    const later = buildSpeechScore(
      input({ learnerEmotion: reading('anger', 0.99, 0.7, -0.5), speakerTakes: naming?.baselineTakes ?? 5 }),
    );
    expect(later.emotion.reading).toBe(naming ? 'baseline' : 'cold');
    const { named: _n, reading: _r, energyAgreement: _e, categoryAgreement: _k, ...v2Emotion } = s.emotion;
    const v2 = speechScore.parse({
      ...s,
      version: 2,
      emotion: { ...v2Emotion, confidence: 0.99, clear: true },
    });
    expect(v2.emotion.clear).toBe(true);
    const { confidence: _c, clear: _cl, targetArousal: _t, arousalGap: _g, ...v1Emotion } = v2Emotion;
    const { deliveryLikeness: _d, ...v1 } = s;
    const old = speechScore.parse({ ...v1, version: 1, emotion: v1Emotion });
    expect(old.emotion.clear).toBeUndefined();
    expect(() => speechScore.parse({ ...s, version: 4 })).toThrow();
  });

  it('uses the annotated target emotion over the actor when the line has one', () => {
    const s = buildSpeechScore(input({ targetEmotion: 'happiness' }));
    expect(s.emotion.targetSource).toBe('annotated');
    expect(s.emotion.target).toBe('happiness');
    // Anger heard with 80 % for a happy line: same energy, wrong category; the category costs it
    // in proportion to the confidence, the shared arousal keeps part of the score.
    const right = buildSpeechScore(input({ targetEmotion: 'anger' }));
    expect(s.scores.emotion).toBeLessThan(right.scores.emotion - 30);
    expect(s.scores.emotion).toBeLessThan(65);
  });

  it('scores a silent take near zero with a tip saying no speech was heard', () => {
    const s = buildSpeechScore(input({ learner: silentVoice() }));
    expect(s.overall).toBeLessThanOrEqual(5);
    expect(s.quality.speechDetected).toBe(false);
    expect(s.tips[0].zh).toContain('没有检测到说话声');
    expect(s.tips[0].en).toContain('No speech');
  });

  it('flags clipping and a quiet recording and lowers the quality score', () => {
    const clipped = buildSpeechScore(
      input({ learner: synthVoice({ quality: { clippedFraction: 0.02, peakDbfs: 0 } }) }),
    );
    expect(clipped.quality.clipped).toBe(true);
    expect(clipped.scores.quality).toBeLessThan(60);
    const quiet = buildSpeechScore(input({ learner: synthVoice({ quality: { peakDbfs: -52 } }) }));
    expect(quiet.quality.tooQuiet).toBe(true);
    expect(quiet.tips.some((t) => t.zh.includes('音量太小') && t.zh.includes('-52.0'))).toBe(true);
  });

  it('scores without a reference, judging range and pace on their own', () => {
    const s = buildSpeechScore(input({ actor: null, actorEmotion: null }));
    expect(() => speechScore.parse(s)).not.toThrow();
    expect(s.emotion.targetSource).toBe('none');
    expect(s.contours.actorPitch).toBeNull();
    expect(s.prosody.actor).toBeNull();
    expect(s.comparison).toBeNull();
  });
});
