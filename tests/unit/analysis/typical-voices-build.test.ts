import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../../src/audio/analysis';
import { buildVoices, REGISTER, VOICE_OPTIONS, type VoiceData } from '../../../scripts/emotion/voices';
import type { NeutralTake } from '../../../scripts/emotion/neutral-voices';

const D = FEATURE_NAMES.length;
const REG = FEATURE_NAMES.indexOf(REGISTER.feature);
const J = FEATURE_NAMES.indexOf('loud_sp_mean');
/** A feature row: `v` everywhere, the register feature at `pitch`. */
const row = (v: number, pitch: number) => {
  const x = new Float64Array(D).fill(v);
  x[REG] = pitch;
  return x;
};

function data(): VoiceData {
  // EmoDB stand-in: one man whose anger sits 2 above his neutral, one woman whose sits 4 above.
  const emo: VoiceData['emo'] = [
    { file: 'm-n', speaker: 'm', sex: 'm', emotion: 'neutral' },
    { file: 'm-a', speaker: 'm', sex: 'm', emotion: 'anger' },
    { file: 'f-n', speaker: 'f', sex: 'f', emotion: 'neutral' },
    { file: 'f-a', speaker: 'f', sex: 'f', emotion: 'anger' },
  ];
  const emoFeatures = new Map([
    ['m-n', row(0, 20)],
    ['m-a', row(2, 20)],
    ['f-n', row(10, 35)],
    ['f-a', row(14, 35)],
  ]);
  const take = (id: string, speaker: string, language: 'en' | 'zh'): NeutralTake => ({
    id,
    set: 'line-check',
    path: id,
    speaker,
    language,
    sex: null,
    age: 'adult',
  });
  // English: two low voices (one with two takes), one high; Mandarin: one high voice only.
  const neutral = [
    take('e1', 'low-a', 'en'),
    take('e2', 'low-a', 'en'),
    take('e3', 'low-b', 'en'),
    take('e4', 'high-a', 'en'),
    take('z1', 'high-b', 'zh'),
  ];
  const neutralFeatures = new Map([
    ['e1', row(5, 22)],
    ['e2', row(7, 22)],
    ['e3', row(8, 24)],
    ['e4', row(30, 36)],
    ['z1', row(40, 37)],
  ]);
  return { emo, emoFeatures, neutral, neutralFeatures };
}

describe('build:voices', () => {
  const file = buildVoices(data());

  it("takes each language's neutral delivery speaker by speaker, and EmoDB's range and spread by register", () => {
    // Low: speakers' means 6 and 8 → 7, plus the man's range (mean of all takes − neutral) 1.
    expect(file.voices.en.low.mean[J]).toBeCloseTo(8, 6);
    // High: 30 plus the woman's range 2; the spread is each register's within-speaker variance.
    expect(file.voices.en.high.mean[J]).toBeCloseTo(32, 6);
    expect(file.voices.en.low.variance[J]).toBeCloseTo(1, 6);
    expect(file.voices.en.high.variance[J]).toBeCloseTo(4, 6);
    expect(file.voices.zh.high.mean[J]).toBeCloseTo(42, 6);
  });

  it('pools the languages held, and lends the pooled voice to a register a language lacks', () => {
    expect(file.voices.und.high.mean[J]).toBeCloseTo(37, 6);
    expect(file.voices.und.low.mean[J]).toBeCloseTo(8, 6);
    expect(file.voices.zh.low.mean[J]).toBeCloseTo(file.voices.und.low.mean[J], 6);
  });

  it('writes the options it was given', () => {
    expect(file).toMatchObject({
      register: REGISTER,
      takes: VOICE_OPTIONS.takes,
      weight: VOICE_OPTIONS.weight,
    });
    const other = buildVoices(data(), { ...VOICE_OPTIONS, takes: 2, weight: 0.7 });
    expect(other).toMatchObject({ takes: 2, weight: 0.7 });
    // A higher threshold moves the English high voice (36 st) to the low register; the English high
    // register then borrows the pooled one, which is Mandarin's alone.
    const higher = buildVoices(data(), { ...VOICE_OPTIONS, register: { ...REGISTER, threshold: 36.5 } });
    // The file keeps five significant digits.
    expect(higher.voices.en.low.mean[J]).toBeCloseTo((6 + 8 + 30) / 3 + 1, 3);
    expect(higher.voices.en.high.mean[J]).toBeCloseTo(42, 6);
  });
});
