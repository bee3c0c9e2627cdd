import { describe, expect, it } from 'vitest';
import { soundSuggestData } from '../../../src/api/contract';
import { emotionModel } from '../../../src/audio/analysis';
import {
  EMOTION_PASS,
  type InterpretLine,
  interpretVoice as interpretFacts,
} from '../../../src/audio/scoring/interpret';
import { fact, word } from '../../../src/i18n';
import { buildSpeechScore } from '../../../src/audio/scoring/score';
import type { EmotionReading, ScoringVoice } from '../../../src/audio/scoring/types';
import { reading, silentVoice, synthVoice } from './synth-voice';

/** The facts worded as the server words its answer's lines (topic, then statement). */
function interpretVoice(lines: InterpretLine[], total: number) {
  const r = interpretFacts(lines, total);
  const say = (l: 'zh' | 'en') =>
    r.statements.map((s) => {
      const text = word(s.fact, l);
      return s.headed
        ? word(fact('suggest.line', { topic: word(fact(`topic.${s.topic}`), l), text }), l)
        : text;
    });
  return { ...r, zh: say('zh'), en: say('en') };
}

const expressive = (base: number, st: number) => (t: number, s: number) =>
  base * 2 ** ((st * Math.sin((Math.PI * t) / s)) / 12);

function take(subtitlesId: string, attempt: number, learner: ScoringVoice, emotion: EmotionReading) {
  return buildSpeechScore({
    takeId: `${subtitlesId}-${attempt}-take`,
    subtitlesId,
    filmId: 'film',
    attempt,
    audioUrl: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    learner,
    learnerEmotion: emotion,
    actor: synthVoice({
      pitch: expressive(220, 8),
      figures: { pitchRangeSemitones: 8, loudnessRangeDb: 14 },
    }),
    actorEmotion: reading('anger', 0.85, 0.8, -0.6),
    targetEmotion: 'anger',
  });
}

const flat = synthVoice({
  pitch: expressive(120, 1),
  figures: { pitchRangeSemitones: 2, loudnessRangeDb: 5 },
});
const lively = synthVoice({
  pitch: expressive(120, 8),
  figures: { pitchRangeSemitones: 7.5, loudnessRangeDb: 12 },
});
const angry = reading('anger', 0.8, 0.8, -0.6);
/** Below the model's label threshold: the heard category must not be named. */
const calm = reading('neutral', emotionModel().labelThreshold - 0.1, 0, 0);

function lines(): InterpretLine[] {
  return [
    {
      subtitlesId: 'film-0',
      index: 1,
      text: 'Get out!',
      first: take('film-0', 1, flat, calm),
      second: take('film-0', 2, lively, angry),
    },
    { subtitlesId: 'film-1', index: 2, text: 'Now.', first: take('film-1', 1, flat, calm), second: null },
    {
      subtitlesId: 'film-2',
      index: 3,
      text: 'Leave.',
      first: take('film-2', 1, lively, angry),
      second: null,
    },
  ];
}

describe('interpretVoice', () => {
  it('writes one statement per topic, each quoting measured figures, in both languages', () => {
    const r = interpretVoice(lines(), 5);
    expect(r.zh.length).toBe(r.en.length);
    expect(r.zh.length).toBeGreaterThanOrEqual(7);
    expect(r.zh[0]).toContain('3/5');
    const range = r.zh.find((l) => l.startsWith('音调起伏'));
    // Latest attempts: 7.5, 2, 7.5 → median 7.5; actor 8.
    expect(range).toContain('7.5');
    expect(range).toContain('8.0');
    expect(r.zh.some((l) => l.startsWith('语调') && /\d/.test(l))).toBe(true);
    expect(r.zh.some((l) => l.startsWith('轻重') && l.includes('14 分贝'))).toBe(true);
    expect(r.zh.some((l) => l.startsWith('节奏'))).toBe(true);
    for (const line of [...r.zh, ...r.en]) expect(line).not.toContain('\n');
  });

  it('reports how many lines came across, which way the energy missed, and only clear slips by name', () => {
    const r = interpretVoice(lines(), 3);
    const takes = lines()
      .map((l) => l.second ?? l.first)
      .filter((t) => t !== null);
    const passed = takes.filter((t) => t.scores.emotion >= EMOTION_PASS).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(3);
    // No take's emotion may be named (the shipped naming rule, below): no line counts as a match.
    expect(takes.every((t) => t.emotion.named === false)).toBe(true);
    expect(r.figures.emotionMatchRate).toBeNull();
    const emotion = r.zh.find((l) => l.startsWith('情绪'));
    expect(emotion).toContain(`3 句中有 ${passed} 句`);
    expect(emotion).toContain('1 句偏弱');
    // The calm reading is below the label threshold: no emotion is named for it.
    expect(emotion).not.toContain('听起来像');
    // The shipped naming rule names no class even on a sure reading (docs/emotion.md)...
    const sure = lines();
    sure[1].first = take('film-1', 1, flat, reading('neutral', 0.995, 0, 0));
    expect(sure[1].first.emotion.clear).toBe(false);
    expect(interpretVoice(sure, 3).zh.find((l) => l.startsWith('情绪'))).not.toContain('听起来像');
    // ...while a stored version-2 result that was clear still names its slip.
    const stored = lines();
    const v2 = take('film-1', 1, flat, reading('neutral', 0.995, 0, 0));
    // A version-2 result has no `named`: its `clear` says whether the class may be named.
    const { named: _v3Only, ...v2Emotion } = v2.emotion;
    stored[1].first = { ...v2, version: 2, emotion: { ...v2Emotion, clear: true, confidence: 0.995 } };
    expect(interpretVoice(stored, 3).zh.find((l) => l.startsWith('情绪'))).toContain(
      '「愤怒」的句子听起来像「平静」',
    );
    // The class heard in the actor's take is not the line's emotion: no slip is named against it.
    stored[1].first = { ...stored[1].first, emotion: { ...stored[1].first.emotion, targetSource: 'actor' } };
    expect(interpretVoice(stored, 3).zh.find((l) => l.startsWith('情绪'))).not.toContain('的句子听起来像');
  });

  it('measures the change from first to second attempt', () => {
    const ls = lines();
    const expected = (ls[0].second?.overall ?? 0) - (ls[0].first?.overall ?? 0);
    const r = interpretVoice(ls, 3);
    expect(expected).toBeGreaterThan(0);
    expect(r.figures.improvement).toBeCloseTo(expected, 1);
    expect(r.zh.find((l) => l.startsWith('进步'))).toContain(`+${expected.toFixed(1)}`);
  });

  it('says "no change" for retakes that kept their scores, never "0.0 on average"', () => {
    const same = take('film-0', 1, lively, angry);
    const ls: InterpretLine[] = [
      { subtitlesId: 'film-0', index: 1, text: 'Get out!', first: same, second: { ...same, attempt: 2 } },
    ];
    const r = interpretVoice(ls, 1);
    expect(r.figures.improvement).toBe(0);
    const zh = r.zh.find((l) => l.startsWith('进步'));
    const en = r.en.find((l) => l.startsWith('Progress'));
    expect(zh).toContain('没有变化');
    expect(zh).not.toMatch(/0\.0/);
    expect(en).toContain('did not change');
    expect(en).not.toMatch(/0\.0/);
  });

  it('names the weakest sub-score as the one thing to practise next', () => {
    const r = interpretVoice(lines(), 3);
    const last = r.zh[r.zh.length - 1];
    expect(last.startsWith('下一步练习')).toBe(true);
    const ls = lines();
    const takes = ls.map((l) => l.second ?? l.first).filter((t) => t !== null);
    const keys = ['emotion', 'intonation', 'energy', 'timing', 'quality'] as const;
    const mean = (k: (typeof keys)[number]) => takes.reduce((s, t) => s + t.scores[k], 0) / takes.length;
    const weakest = [...keys].sort((a, b) => mean(a) - mean(b))[0];
    const names = {
      emotion: '情绪',
      intonation: '语调',
      energy: '轻重',
      timing: '节奏',
      quality: '录音质量',
    };
    expect(last).toContain(`下一步练习：${names[weakest]}`);
  });

  it('gives as the example for the weakest area a tip about that area, never one about another', () => {
    const ls = lines();
    const takes = ls.map((l) => l.second ?? l.first).filter((t) => t !== null);
    // Make intonation the weakest area, and put a loudness tip first in every take.
    const loud = fact('take.emotion.moreEnergy', { learner: 40, source: 'actor', target: '', goal: 80 });
    for (const t of takes) {
      t.scores.intonation = 5;
      t.statements = [{ ...loud, severity: 0.5 }, ...(t.statements ?? [])];
    }
    const r = interpretVoice(ls, 3);
    const practice = r.en[r.en.length - 1];
    expect(practice).toContain('intonation (average 5');
    expect(practice).not.toContain('Put more intensity into it');
    // The take's own intonation tip, when it has one, is the example.
    const worst = takes[0];
    worst.statements = [
      { ...loud, severity: 0.5 },
      { ...fact('take.pitch.flat', { learner: 1.5 }), severity: 0.3 },
    ];
    for (const t of takes.slice(1)) t.scores.intonation = 50;
    const again = interpretVoice(ls, 3).en.at(-1) ?? '';
    expect(again).toContain('only 1.5 semitones');
  });

  it('fits the contract figures and handles a learner with no usable takes', () => {
    const r = interpretVoice(lines(), 3);
    expect(() =>
      soundSuggestData.parse({
        filmId: 'film',
        lang: 'zh',
        audioInterpret: r.zh.join('\n'),
        figures: r.figures,
      }),
    ).not.toThrow();
    const none = interpretVoice([], 4);
    expect(none.zh[0]).toContain('4 句');
    expect(none.figures.average).toBeNull();
    const silent = interpretVoice(
      [{ subtitlesId: 'x', index: 1, text: 'x', first: take('x', 1, silentVoice(), calm), second: null }],
      1,
    );
    expect(silent.zh[0]).toContain('都没有听到说话');
  });
});
