/**
 * npm run build:voices — builds src/audio/analysis/emotion-voices.json, the typical voices a first
 * take is read against (src/audio/analysis/emotion-voices.ts; docs/emotion.md, "The first take").
 *
 * Per language and pitch register, a pseudo-speaker:
 *  - its neutral delivery: neutral read speech in the language (neutral-voices.ts: so762-train's
 *    English by Mandarin-speaking learners and line-check's native English and Mandarin), the mean
 *    of its speakers' means (so a speaker with many files weighs as one), speakers assigned to a
 *    register by the median of their takes' register feature;
 *  - its emotional range and spread: EmoDB's speakers of the register (men low, women high), the
 *    mean over them of (all takes − neutral takes) added to that neutral delivery, and their mean
 *    within-speaker variance: the speaker heads were trained on statistics of a speaker's takes of
 *    every emotion, so a typical voice must look like one.
 * `und` is the mean of the languages held. Nothing of nemo-dev enters: the register feature and
 * threshold, the pseudo-take count and the first-take weight below were chosen by comparing a few
 * values on it (docs/emotion.md), never fitted.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURE_NAMES } from '../../src/audio/analysis';
import type { Register, TypicalVoice, TypicalVoicesFile } from '../../src/audio/analysis/emotion-voices';
import { loadCondition, ensureConditions } from '../eval/transfer/features';
import { loadEmoDbIndex } from '../lib/emodb';
import { loadNeutralIndex, type NeutralTake, neutralFeatures, neutralPresent } from './neutral-voices';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = resolve(root, 'src', 'audio', 'analysis', 'emotion-voices.json');

export const REGISTER = { feature: 'f0st_p20', threshold: 29, width: 1.5 };
export const TYPICAL_TAKES = 6;
export const FIRST_TAKE_WEIGHT = 0.5;

const D = FEATURE_NAMES.length;
const REGISTERS: Register[] = ['low', 'high'];

function meanOf(rows: Float64Array[]): Float64Array {
  if (!rows.length) throw new Error('no rows');
  const m = new Float64Array(D);
  for (const r of rows) for (let i = 0; i < D; i++) m[i] += r[i] / rows.length;
  return m;
}

function varianceOf(rows: Float64Array[]): Float64Array {
  const m = meanOf(rows);
  const v = new Float64Array(D);
  for (const r of rows) for (let i = 0; i < D; i++) v[i] += (r[i] - m[i]) ** 2 / rows.length;
  return v;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const g = new Map<string, T[]>();
  for (const t of items) g.set(key(t), [...(g.get(key(t)) ?? []), t]);
  return g;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const sig = (v: number) => Number(v.toPrecision(5));

/** What the typical voices are built from: EmoDB's clean features and the neutral read speech's. */
export interface VoiceData {
  emo: Array<{ file: string; speaker: string; sex: 'm' | 'f'; emotion: string }>;
  emoFeatures: Map<string, Float64Array>;
  neutral: NeutralTake[];
  neutralFeatures: Map<string, Float64Array>;
}

export async function loadVoiceData(): Promise<VoiceData> {
  await ensureConditions(['clean']);
  const neutral = loadNeutralIndex();
  return {
    emo: loadEmoDbIndex(),
    emoFeatures: loadCondition('clean'),
    neutral,
    neutralFeatures: neutralFeatures(neutral),
  };
}

/** What the script chooses (emotion-voices.ts TypicalVoicesFile has their meaning). */
export interface VoiceOptions {
  register: TypicalVoicesFile['register'];
  takes: number;
  weight: number;
}

export const VOICE_OPTIONS: VoiceOptions = {
  register: REGISTER,
  takes: TYPICAL_TAKES,
  weight: FIRST_TAKE_WEIGHT,
};

/**
 * The typical voices file built from `data` with `opt` (the script writes it with VOICE_OPTIONS;
 * `npm run eval:transfer -- --only reading-options` compares others, scripts/eval/reading.ts).
 */
export function buildVoices(data: VoiceData, opt: VoiceOptions = VOICE_OPTIONS): TypicalVoicesFile {
  const reg = FEATURE_NAMES.indexOf(opt.register.feature);
  // EmoDB's speakers by register: their neutral delivery, all their takes, their spread.
  const { emo, emoFeatures } = data;
  const anchor = Object.fromEntries(
    REGISTERS.map((r) => {
      const speakers = groupBy(
        emo.filter((e) => e.sex === (r === 'low' ? 'm' : 'f')),
        (e) => e.speaker,
      );
      const rows = (es: typeof emo) => es.map((e) => emoFeatures.get(e.file) as Float64Array);
      const each = [...speakers.values()];
      const neutral = meanOf(each.map((es) => meanOf(rows(es.filter((e) => e.emotion === 'neutral')))));
      const all = meanOf(each.map((es) => meanOf(rows(es))));
      const variance = meanOf(each.map((es) => varianceOf(rows(es))));
      return [r, { range: all.map((v, i) => v - neutral[i]), variance, speakers: each.length }];
    }),
  ) as Record<Register, { range: Float64Array; variance: Float64Array; speakers: number }>;

  const takes = data.neutral;
  const features = data.neutralFeatures;
  const delivery: Record<string, Partial<Record<Register, Float64Array>>> = {};
  const counts: string[] = [];
  for (const [language, own] of groupBy(takes, (t) => t.language)) {
    const speakers = [...groupBy(own, (t) => t.speaker).values()].map((ts) =>
      ts.map((t) => features.get(t.id) as Float64Array),
    );
    delivery[language] = {};
    for (const r of REGISTERS) {
      const inRegister = speakers.filter(
        (rows) => median(rows.map((x) => x[reg])) >= opt.register.threshold === (r === 'high'),
      );
      if (inRegister.length) delivery[language][r] = meanOf(inRegister.map(meanOf));
      counts.push(`${language} ${r}: ${inRegister.length} speakers`);
    }
  }
  const languages = Object.keys(delivery).sort();
  const voiceOf = (neutral: Float64Array, r: Register): TypicalVoice => ({
    mean: Array.from(neutral, (v, i) => sig(v + anchor[r].range[i])),
    variance: Array.from(anchor[r].variance, sig),
  });
  const voices: TypicalVoicesFile['voices'] = {};
  const pooled = Object.fromEntries(
    REGISTERS.map((r) => {
      const held = languages.map((l) => delivery[l][r]).filter((x): x is Float64Array => !!x);
      return [r, meanOf(held)];
    }),
  ) as Record<Register, Float64Array>;
  voices.und = { low: voiceOf(pooled.low, 'low'), high: voiceOf(pooled.high, 'high') };
  for (const l of languages)
    voices[l] = {
      low: voiceOf(delivery[l].low ?? pooled.low, 'low'),
      high: voiceOf(delivery[l].high ?? pooled.high, 'high'),
    };
  return {
    format: 'emotion-voices/1',
    featureNames: [...FEATURE_NAMES],
    register: opt.register,
    takes: opt.takes,
    weight: opt.weight,
    voices,
    provenance: {
      neutral:
        'neutral read speech: speechocean762 training utterances (600, English read by Mandarin-speaking learners, Zhang et al. 2021, Apache-2.0); LJSpeech, LibriVox and CMU cards (public domain, BSD-2-Clause) in English; AISHELL-1 (Apache-2.0) and audio-cmn (CC BY-SA) in Mandarin; only their feature means enter this file',
      speakers: counts.join('; '),
      emodb: `EmoDB (Burkhardt et al. 2005, CC0-1.0): per register, ${anchor.low.speakers} men (low) and ${anchor.high.speakers} women (high): mean of (all takes − neutral takes) and within-speaker variance`,
      choices:
        'register feature, threshold and width, pseudo-take count and first-take weight chosen among a few values on nemo-dev (docs/emotion.md); nothing fitted on it',
      script: 'scripts/emotion/voices.ts (npm run build:voices)',
    },
  };
}

async function main(): Promise<void> {
  if (!neutralPresent()) {
    console.error(
      'neutral read speech not found (../shared/datasets/so762-train and line-check; SO762_DIR, LINE_CHECK_DIR)',
    );
    process.exit(2);
  }
  const file = buildVoices(await loadVoiceData());
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  execFileSync(resolve(root, 'node_modules', '.bin', 'biome'), ['format', '--write', out], {
    stdio: 'ignore',
  });
  console.log(`wrote ${out} (${file.provenance.speakers})`);
}

// Run as a script (npm run build:voices); imported, it only lends buildVoices to the evaluations.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
