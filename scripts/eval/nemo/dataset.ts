/**
 * The Polish development set (../shared/datasets/nemo-dev, or NEMO_DIR): acted speech by 9 speakers
 * the model never heard, in a language it never heard, each sentence in every emotion by every
 * speaker. EVALUATION ONLY (its SOURCE.md: CC BY-NC-SA 4.0): nothing here may be trained, fitted or
 * tuned on it, and nothing derived from it may enter the repository. Its features are cached under
 * scripts/.cache/nemo (ignored by git), keyed by a hash of the analysis code like the transfer
 * bench's (scripts/eval/transfer/features.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emotion } from '../../../src/api/contract';
import { analyzeVoice } from '../../../src/audio/analysis';
import { decodeWav, toMono } from '../../../src/audio/dsp/wav';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');

export interface NemoTake {
  file: string;
  speaker: string;
  emotion: Emotion;
  /** Sentence id: the same id is the same text across speakers and emotions. */
  text: string;
  sex: string;
}

export function nemoDir(): string {
  return process.env.NEMO_DIR ?? resolve(root, '..', 'shared', 'datasets', 'nemo-dev');
}

export function nemoPresent(): boolean {
  return existsSync(join(nemoDir(), 'labels.csv')) && existsSync(join(nemoDir(), 'wav'));
}

/** One CSV line with double-quoted fields (the text column holds commas). */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function loadNemoIndex(): NemoTake[] {
  const lines = readFileSync(join(nemoDir(), 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const header = splitCsv(lines[0]);
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new Error(`nemo-dev labels.csv has no column ${n}`);
    return i;
  };
  const [f, s, e, t, x] = ['file', 'speaker', 'emotion', 'text_id', 'sex'].map(col);
  return lines
    .slice(1)
    .map(splitCsv)
    .map((c) => ({ file: c[f], speaker: c[s], emotion: c[e] as Emotion, text: c[t], sex: c[x] }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** The files that compute features (as in transfer/features.ts): a change re-extracts. */
function analysisKey(): string {
  const dir = resolve(root, 'src', 'audio', 'analysis');
  const h = createHash('sha1');
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.ts') && !/^(emotion|index|serialize|speaker-stats)/.test(n))
    .sort())
    h.update(f).update(readFileSync(join(dir, f)));
  return h.digest('hex').slice(0, 12);
}

export function loadNemoAudio(t: NemoTake): { samples: Float32Array; sampleRate: number } {
  const wav = decodeWav(readFileSync(join(nemoDir(), 'wav', t.file)));
  return { samples: toMono(wav), sampleRate: wav.sampleRate };
}

/** Utterance features of every take (extracted once per analysis version, then cached). */
export function nemoFeatures(takes: NemoTake[], log = (s: string) => process.stderr.write(`${s}\n`)) {
  const file = resolve(root, 'scripts', '.cache', 'nemo', analysisKey(), 'features.json');
  if (existsSync(file)) {
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
    if (takes.every((t) => rows[t.file]))
      return new Map(takes.map((t) => [t.file, Float64Array.from(rows[t.file])]));
  }
  const rows: Record<string, number[]> = {};
  const t0 = Date.now();
  takes.forEach((t, i) => {
    const a = loadNemoAudio(t);
    rows[t.file] = Array.from(analyzeVoice(a.samples, a.sampleRate).features);
    if ((i + 1) % 200 === 0) log(`  nemo-dev features: ${i + 1}/${takes.length}`);
  });
  log(`  nemo-dev features: ${takes.length} takes in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(rows));
  renameSync(`${file}.tmp`, file);
  return new Map(takes.map((t) => [t.file, Float64Array.from(rows[t.file])]));
}
