/**
 * Neutral read speech in the learners' languages, for the cold reading's typical voices
 * (scripts/emotion/voice-norms.ts) and for checking that neutral takes read as calm
 * (scripts/eval/neutral.ts). No emotion labels: never emotion training data.
 *  - ../shared/datasets/so762-train (or SO762_DIR): English read by Mandarin-speaking learners,
 *    children and adults (labels.csv: speaker, gender, age);
 *  - ../shared/datasets/line-check (or LINE_CHECK_DIR): native English and Mandarin (transcripts.tsv).
 * Features are cached under scripts/.cache/neutral, keyed by the analysis code (as nemo-dev's).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeVoice } from '../../src/audio/analysis';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Age bands reported on the neutral sets (a child's voice is the one most unlike EmoDB's). */
export type AgeBand = 'child' | 'teen' | 'adult' | 'unknown';

export function ageBand(age: number | null): AgeBand {
  if (age === null || !Number.isFinite(age)) return 'unknown';
  return age <= 12 ? 'child' : age <= 17 ? 'teen' : 'adult';
}

export interface NeutralTake {
  /** Set and file, unique over both sets. */
  id: string;
  set: 'so762' | 'line-check';
  path: string;
  speaker: string;
  /** BCP 47 primary language subtag of the speech. */
  language: 'en' | 'zh';
  sex: 'm' | 'f' | null;
  age: AgeBand;
}

export function so762Dir(): string {
  return process.env.SO762_DIR ?? resolve(root, '..', 'shared', 'datasets', 'so762-train');
}
export function lineCheckDir(): string {
  return process.env.LINE_CHECK_DIR ?? resolve(root, '..', 'shared', 'datasets', 'line-check');
}

export function neutralPresent(): boolean {
  return existsSync(join(so762Dir(), 'labels.csv')) && existsSync(join(lineCheckDir(), 'transcripts.tsv'));
}

export function loadNeutralIndex(): NeutralTake[] {
  const out: NeutralTake[] = [];
  const so = readFileSync(join(so762Dir(), 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const head = so[0].split(',');
  const [f, s, g, a] = ['file', 'speaker', 'gender', 'age'].map((n) => head.indexOf(n));
  for (const line of so.slice(1)) {
    // The text column may hold commas; the columns used here all come before it.
    const c = line.split(',');
    out.push({
      id: `so762/${c[f]}`,
      set: 'so762',
      path: join(so762Dir(), 'wav', c[f]),
      speaker: `so762-${c[s]}`,
      language: 'en',
      sex: c[g] === 'm' || c[g] === 'f' ? c[g] : null,
      age: ageBand(Number(c[a])),
    });
  }
  const lc = readFileSync(join(lineCheckDir(), 'transcripts.tsv'), 'utf8').trim().split(/\r?\n/);
  for (const line of lc.slice(1)) {
    const [file, speaker, language] = line.split('\t');
    if (language !== 'en' && language !== 'zh') continue;
    // Native adult readers; their sex is not in the set's metadata.
    out.push({
      id: `line-check/${file}`,
      set: 'line-check',
      path: join(lineCheckDir(), file),
      speaker,
      language,
      sex: null,
      age: 'adult',
    });
  }
  return out.sort((x, y) => x.id.localeCompare(y.id));
}

function analysisKey(): string {
  const dir = resolve(root, 'src', 'audio', 'analysis');
  const h = createHash('sha1');
  for (const n of readdirSync(dir)
    .filter((x) => x.endsWith('.ts') && !/^(emotion|index|serialize|speaker-stats)/.test(x))
    .sort())
    h.update(n).update(readFileSync(join(dir, n)));
  return h.digest('hex').slice(0, 12);
}

/** Utterance features of every take (extracted once per analysis version, then cached). */
export function neutralFeatures(
  takes: NeutralTake[],
  log = (s: string) => process.stderr.write(`${s}\n`),
): Map<string, Float64Array> {
  const file = resolve(root, 'scripts', '.cache', 'neutral', analysisKey(), 'features.json');
  let rows: Record<string, number[]> = {};
  if (existsSync(file)) rows = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
  const missing = takes.filter((t) => !rows[t.id]);
  if (missing.length) {
    const t0 = Date.now();
    missing.forEach((t, i) => {
      const wav = decodeWav(readFileSync(t.path));
      rows[t.id] = Array.from(analyzeVoice(toMono(wav), wav.sampleRate).features);
      if ((i + 1) % 200 === 0) log(`  neutral read speech features: ${i + 1}/${missing.length}`);
    });
    log(
      `  neutral read speech features: ${missing.length} takes in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(rows));
    renameSync(`${file}.tmp`, file);
  }
  return new Map(takes.map((t) => [t.id, Float64Array.from(rows[t.id])]));
}
