import { describe, expect, it } from 'vitest';
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

  it('names the heard and the target emotion with their probabilities and says which way to move', () => {
    const tips = score({ learnerEmotion: reading('sadness', 0.7, -0.5, -0.6), targetEmotion: 'anger' });
    const tip = tips.find((t) => t.zh.includes('悲伤'));
    expect(tip?.zh).toContain('愤怒');
    expect(tip?.zh).toContain('70%');
    expect(tip?.zh).toContain('加大能量');
    expect(tip?.en).toContain('Add energy');
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
    const tips = score({});
    expect(tips.some((t) => t.zh.includes('情绪对上了'))).toBe(true);
    expect(tips.every((t) => /\d/.test(t.zh))).toBe(true);
  });
});
