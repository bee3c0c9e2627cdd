import { describe, expect, it } from 'vitest';
import { emotionModel } from '../../../src/audio/analysis';
import { buildSpeechScore, type ScoreInput } from '../../../src/audio/scoring/score';
import { reading, synthVoice } from './synth-voice';

const expressive = (base: number) => (t: number, s: number) =>
  base * 2 ** ((6 * Math.sin((Math.PI * t) / s)) / 12);

function score(over: Partial<ScoreInput>) {
  return buildSpeechScore({
    takeId: 'take-0001',
    subtitlesId: 's',
    filmId: 'f',
    attempt: 1,
    audioUrl: '',
    createdAt: '',
    learner: synthVoice({ pitch: expressive(120) }),
    learnerEmotion: reading('anger', 0.8, 0.7, -0.5),
    actor: synthVoice({ pitch: expressive(220), figures: { pitchRangeSemitones: 8.4 } }),
    actorEmotion: reading('anger', 0.8, 0.7, -0.5),
    targetEmotion: null,
    ...over,
  }).tips;
}

describe('tips', () => {
  it('quotes the measured pitch ranges when the learner is flatter than the actor', () => {
    const tips = score({
      learner: synthVoice({ pitch: () => 120, figures: { pitchRangeSemitones: 1.3 } }),
    });
    const tip = tips.find((t) => t.zh.includes('音高起伏'));
    expect(tip?.zh).toContain('1.3');
    expect(tip?.zh).toContain('8.4');
    expect(tip?.en).toContain('1.3 semitones');
  });

  it('shows no percentage the shipped rule does not allow, even on a sure reading, and says which way to move', () => {
    expect(emotionModel().naming?.showPercentage).toBe(false);
    const tips = score({ learnerEmotion: reading('sadness', 0.99, -0.5, -0.6), targetEmotion: 'anger' });
    const tip = tips.find((t) => t.zh.includes('更有力一些'));
    expect(tip?.zh).toContain('愤怒');
    expect(tip?.zh).toContain('你 -0.50');
    expect(tip?.en).toContain('More energy');
    expect(tips.some((t) => t.zh.includes('把握') || t.en.includes('99%'))).toBe(false);
    expect(tip?.zh).toContain('听不出明显的情绪');
  });

  it('never names an emotion it is not sure of: "no clear emotion heard" and the energy gap instead', () => {
    const unsure = emotionModel().labelThreshold - 0.15;
    const tips = score({ learnerEmotion: reading('sadness', unsure, -0.5, -0.6), targetEmotion: 'anger' });
    const tip = tips.find((t) => t.zh.includes('更有力一些'));
    expect(tip?.zh).toContain('听不出明显的情绪');
    expect(tip?.en).toContain('no clear emotion heard');
    expect(tips.some((t) => t.zh.includes('悲伤') || t.en.includes('sadness'))).toBe(false);
    expect(tips.some((t) => t.zh.includes(`${Math.round(unsure * 100)}%`))).toBe(false);
    // Against an actor, the actor's own figures are quoted next to the learner's.
    const actorTips = score({
      learnerEmotion: reading('sadness', unsure, -0.5, -0.6),
      learner: synthVoice({ pitch: expressive(120), figures: { pitchRangeSemitones: 3 } }),
    });
    const a = actorTips.find((t) => t.zh.includes('更有力一些'));
    expect(a?.zh).toContain('演员 0.70');
    expect(a?.zh).toContain('音高起伏 3.0 个半音（演员 8.4）');
    expect(a?.en).toContain('pitch range 3.0 semitones (actor 8.4)');
  });

  it('says "less energy" when the learner overshoots the target', () => {
    const tips = score({ learnerEmotion: reading('anger', 0.4, 0.9, -0.5), targetEmotion: 'sadness' });
    expect(tips.some((t) => t.zh.includes('收一些能量') && t.en.includes('Less energy'))).toBe(true);
  });

  it('tells a slow learner by how much, from the duration ratio', () => {
    const tips = score({ learner: synthVoice({ pitch: expressive(120), offset: 2.5, durationSeconds: 3 }) });
    const tip = tips.find((t) => t.zh.includes('比演员慢'));
    expect(tip?.zh).toMatch(/慢 5[0-9]%/);
  });

  it('gives different advice for different problems, always 2–3 tips', () => {
    const a = score({ learner: synthVoice({ pitch: () => 120, figures: { pitchRangeSemitones: 1 } }) });
    const b = score({
      learner: synthVoice({ pitch: expressive(120), onset: 1.2, offset: 2.6, durationSeconds: 3 }),
    });
    const c = score({});
    for (const tips of [a, b, c]) {
      expect(tips.length).toBeGreaterThanOrEqual(2);
      expect(tips.length).toBeLessThanOrEqual(3);
      for (const t of tips) {
        expect(t.zh.length).toBeGreaterThan(5);
        expect(t.en.length).toBeGreaterThan(5);
      }
    }
    expect(a.map((t) => t.zh)).not.toEqual(b.map((t) => t.zh));
    expect(b.some((t) => t.zh.includes('晚 0.9 秒开口'))).toBe(true);
  });

  it('without an actor, judges a narrow pitch and loudness range on their own', () => {
    const tips = score({
      actor: null,
      actorEmotion: null,
      learner: synthVoice({ pitch: () => 120, figures: { pitchRangeSemitones: 3, loudnessRangeDb: 12 } }),
    });
    expect(tips.some((t) => t.zh.includes('音高起伏只有 3.0 个半音'))).toBe(true);
    expect(tips.some((t) => t.zh.includes('音量变化只有 12.0 dB'))).toBe(true);
    const lively = score({
      actor: null,
      actorEmotion: null,
      learner: synthVoice({
        pitch: expressive(120),
        figures: { pitchRangeSemitones: 12, loudnessRangeDb: 40 },
      }),
    });
    expect(lively.some((t) => t.zh.includes('只有'))).toBe(false);
  });

  it('praises a close imitation with its numbers instead of inventing problems', () => {
    const tips = score({ learnerEmotion: reading('anger', 0.99, 0.7, -0.5) });
    // The energy is what was measured to land (the category is not named under the shipped rule).
    expect(tips.some((t) => t.zh.includes('能量对上了') || t.zh.includes('情绪对上了'))).toBe(true);
    expect(tips.every((t) => /\d/.test(t.zh))).toBe(true);
  });
});
