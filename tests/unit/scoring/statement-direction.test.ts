import { describe, expect, test } from 'vitest';
import type { SoundSuggestData } from '../../../src/api/contract';
import { type InterpretLine, interpretVoice } from '../../../src/audio/scoring/interpret';
import { buildSpeechScore, type ScoreInput } from '../../../src/audio/scoring/score';
import { SOLO } from '../../../src/audio/scoring/subscores';
import { type Fact, word } from '../../../src/i18n';
import { reading, synthVoice } from './synth-voice';

/**
 * The advice of every statement agrees with the figure it quotes: a table of takes per statement
 * kind, each in both directions, and a check of every statement any of them produced.
 */
type Values = Record<string, unknown>;
const n = (v: unknown) => v as number;

/** For each statement kind: does the advice's direction agree with its own figures? */
const AGREES: Record<string, (v: Values) => boolean> = {
  'take.pace.slower': (v) => n(v.learnerSeconds) > n(v.actorSeconds),
  'take.pace.faster': (v) => n(v.learnerSeconds) < n(v.actorSeconds),
  'take.pitch.narrower': (v) => n(v.learner) < n(v.actor),
  'take.pitch.wider': (v) => n(v.learner) > n(v.actor),
  'take.loudness.narrower': (v) => n(v.learner) < n(v.actor),
  'take.loudness.wider': (v) => n(v.learner) > n(v.actor),
  'take.emotion.moreEnergy': (v) => n(v.learner) < n(v.goal),
  'take.emotion.lessEnergy': (v) => n(v.learner) > n(v.goal),
  'take.emotion.lands': (v) => Math.abs(n(v.learner) - n(v.goal)) <= 13,
  'take.pitch.flat': (v) => n(v.learner) < SOLO.pitchTipSt,
  'take.loudness.flat': (v) => n(v.learner) < SOLO.loudTipDb,
  'take.pace.slowAlone': (v) => n(v.rate) < 2.5,
  'take.pace.fastAlone': (v) => n(v.rate) >= 2.5,
  'take.pitch.ending': (v) => v.learnerDirection !== v.actorDirection,
  'take.start.late': (v) => n(v.seconds) > 0,
  'take.start.early': (v) => n(v.seconds) > 0,
  'take.pauses.extra': (v) => n(v.count) > 0,
  'take.pauses.missing': (v) => n(v.count) > 0,
};

const expressive = (base: number, st: number) => (t: number, s: number) =>
  base * 2 ** ((st * Math.sin((Math.PI * t) / s)) / 12);

function statements(over: Partial<ScoreInput>) {
  return buildSpeechScore({
    takeId: 'take-0001',
    subtitlesId: 's',
    filmId: 'f',
    attempt: 1,
    audioUrl: '',
    createdAt: '',
    learner: synthVoice({ pitch: expressive(120, 6) }),
    learnerEmotion: reading('anger', 0.8, 0.7, -0.5),
    actor: synthVoice({ pitch: expressive(220, 6), figures: { pitchRangeSemitones: 8.4 } }),
    actorEmotion: reading('anger', 0.8, 0.7, -0.5),
    targetEmotion: null,
    ...over,
  }).statements as Fact[];
}

const CASES: Array<[string, string, Partial<ScoreInput>]> = [
  [
    'slower',
    'take.pace.slower',
    { learner: synthVoice({ pitch: expressive(120, 6), offset: 2.6, durationSeconds: 3 }) },
  ],
  [
    'faster',
    'take.pace.faster',
    { learner: synthVoice({ pitch: expressive(120, 6), onset: 0.3, offset: 0.9 }) },
  ],
  [
    'narrower pitch',
    'take.pitch.narrower',
    { learner: synthVoice({ pitch: () => 120, figures: { pitchRangeSemitones: 1.3 } }) },
  ],
  [
    // The case of a wide-ranging learner whose energy reads low: the pitch statement says "wider",
    // and the force statement does not advise a higher pitch.
    'wider pitch with low energy',
    'take.pitch.wider',
    {
      learner: synthVoice({ pitch: expressive(120, 30), figures: { pitchRangeSemitones: 31 } }),
      actor: synthVoice({ pitch: expressive(220, 10), figures: { pitchRangeSemitones: 10 } }),
      learnerEmotion: reading('sadness', 0.5, -0.6, -0.5),
    },
  ],
  [
    'narrower loudness',
    'take.loudness.narrower',
    {
      learner: synthVoice({ figures: { loudnessRangeDb: 5 }, pitch: expressive(120, 6) }),
      actor: synthVoice({
        figures: { loudnessRangeDb: 30, pitchRangeSemitones: 8.4 },
        pitch: expressive(220, 6),
      }),
    },
  ],
  [
    'wider loudness',
    'take.loudness.wider',
    {
      learner: synthVoice({ figures: { loudnessRangeDb: 45 }, pitch: expressive(120, 6) }),
      actor: synthVoice({
        figures: { loudnessRangeDb: 12, pitchRangeSemitones: 8.4 },
        pitch: expressive(220, 6),
      }),
    },
  ],
  [
    'more energy',
    'take.emotion.moreEnergy',
    { learnerEmotion: reading('sadness', 0.5, -0.5, -0.6), targetEmotion: 'anger' },
  ],
  [
    'less energy',
    'take.emotion.lessEnergy',
    { learnerEmotion: reading('anger', 0.5, 0.9, -0.5), targetEmotion: 'sadness' },
  ],
  [
    'late start',
    'take.start.late',
    { learner: synthVoice({ pitch: expressive(120, 6), onset: 1.2, offset: 2.6, durationSeconds: 3 }) },
  ],
  [
    'flat alone',
    'take.pitch.flat',
    {
      actor: null,
      actorEmotion: null,
      learner: synthVoice({ pitch: () => 120, figures: { pitchRangeSemitones: 3 } }),
    },
  ],
  [
    'quiet contrast alone',
    'take.loudness.flat',
    {
      actor: null,
      actorEmotion: null,
      learner: synthVoice({ figures: { loudnessRangeDb: 10, pitchRangeSemitones: 12 } }),
    },
  ],
];

describe('each statement agrees with its own figures', () => {
  test.each(CASES)('%s → %s', (_name, id, over) => {
    const said = statements(over);
    expect(said.map((s) => s.id)).toContain(id);
    for (const s of said) {
      const check = AGREES[s.id];
      if (check) expect(check((s.values ?? {}) as Values), `${s.id} ${JSON.stringify(s.values)}`).toBe(true);
    }
  });

  test('the force statement never advises pitch, so it cannot contradict the pitch statement', () => {
    const said = statements(CASES[3][2]);
    const force = said.find((s) => s.id === 'take.emotion.moreEnergy');
    for (const l of ['zh', 'en'] as const) {
      if (force) expect(word(force, l)).not.toMatch(/半音|音调|音高|semitone|pitch|higher/i);
    }
    const pitch = said.find((s) => s.id === 'take.pitch.wider');
    expect(pitch?.values).toEqual({ learner: 31, actor: 10 });
  });

  test('the pace statement names the seconds each took, and slower means more seconds', () => {
    const slow = statements(CASES[0][2]).find((s) => s.id === 'take.pace.slower');
    expect(slow?.values).toEqual({ learnerSeconds: 2.3, actorSeconds: 1.4 });
    expect(word(slow as Fact, 'zh')).toBe('你读得比演员慢：你用了 2.3 秒，演员 1.4 秒。说得更连贯，少拖音。');
  });
});

describe('the suggestion verdicts agree with their figures', () => {
  const take = (learner: Parameters<typeof synthVoice>[0], actor: Parameters<typeof synthVoice>[0]) =>
    buildSpeechScore({
      takeId: 't-0000001',
      subtitlesId: 'a',
      filmId: 'f',
      attempt: 1,
      audioUrl: '',
      createdAt: '',
      learner: synthVoice(learner),
      learnerEmotion: reading('anger', 0.8, 0.7, -0.5),
      actor: synthVoice(actor),
      actorEmotion: reading('anger', 0.8, 0.7, -0.5),
      targetEmotion: null,
    });
  const line = (score: ReturnType<typeof take>): InterpretLine => ({
    subtitlesId: 'a',
    index: 1,
    text: 'x',
    first: score,
    second: null,
  });
  const verdicts = (l: InterpretLine) => {
    const r = interpretVoice([l], 1);
    const of = (topic: string) =>
      r.statements.find((s) => s.topic === topic)?.fact.values as Values | undefined;
    return { r, range: of('range'), energy: of('energy'), pace: of('pace') };
  };
  const figures = (r: { figures: SoundSuggestData['figures'] }) => r.figures;

  test.each([
    ['narrower', { pitchRangeSemitones: 3 }, { pitchRangeSemitones: 10 }],
    ['wider', { pitchRangeSemitones: 20 }, { pitchRangeSemitones: 8 }],
    ['same', { pitchRangeSemitones: 9 }, { pitchRangeSemitones: 9.5 }],
  ] as const)('range %s', (verdict, mine, theirs) => {
    const { range } = verdicts(line(take({ figures: mine }, { figures: theirs })));
    expect(range?.verdict).toBe(verdict);
    if (verdict === 'narrower') expect(n(range?.learner)).toBeLessThan(n(range?.actor));
    if (verdict === 'wider') expect(n(range?.learner)).toBeGreaterThan(n(range?.actor));
  });

  test.each([
    ['narrower', { loudnessRangeDb: 10 }, { loudnessRangeDb: 25 }],
    ['wider', { loudnessRangeDb: 40 }, { loudnessRangeDb: 20 }],
  ] as const)('loudness %s', (verdict, mine, theirs) => {
    const { energy } = verdicts(line(take({ figures: mine }, { figures: theirs })));
    expect(energy?.verdict).toBe(verdict);
    expect(n(energy?.learner) < n(energy?.actor)).toBe(verdict === 'narrower');
  });

  test.each([
    ['slower', { offset: 2.6, durationSeconds: 3 }],
    ['faster', { offset: 0.9 }],
    ['same', {}],
  ] as const)('pace %s', (verdict, timing) => {
    const { r, pace } = verdicts(
      line(take({ pitch: expressive(120, 6), ...timing }, { pitch: expressive(220, 6) })),
    );
    expect(pace?.verdict).toBe(verdict);
    const ratio = n(pace?.ratio);
    expect(figures(r).durationRatio).toBe(ratio);
    if (verdict === 'slower') expect(ratio).toBeGreaterThan(1);
    if (verdict === 'faster') expect(ratio).toBeLessThan(1);
  });
});
