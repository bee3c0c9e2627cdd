/**
 * A folder of takes with their lines, for the words training script and bench (docs/words.md):
 * - laid out like ../shared/datasets/so762-train: labels.csv with at least `file` and `text`
 *   (optionally `speaker` and the experts' `accuracy`, `fluency`, `total`), wavs under wav/, and
 *   optionally words.jsonl (each word's experts' mean `accuracy`);
 * - or like ../shared/datasets/line-check: transcripts.tsv (file, speaker, language, text) at the
 *   set's root or one folder up, with the file paths relative to it; `--lang` picks the rows.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';

export interface SetTake {
  file: string;
  wavPath: string;
  speaker: string;
  text: string;
  labels: { accuracy: number; fluency: number; total: number } | null;
  /** The experts' mean accuracy per word, in the line's order; null when the set has none. */
  wordAccuracy: number[] | null;
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function fromLabels(dir: string): SetTake[] {
  const [head, ...rows] = readFileSync(path.join(dir, 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const cols = parseCsvLine(head);
  const col = (name: string) => cols.indexOf(name);
  const words = new Map<string, number[]>();
  const wordsFile = path.join(dir, 'words.jsonl');
  if (existsSync(wordsFile)) {
    for (const line of readFileSync(wordsFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { file: string; words: { accuracy: number }[] };
      words.set(
        row.file,
        row.words.map((w) => w.accuracy),
      );
    }
  }
  return rows.map((line) => {
    const r = parseCsvLine(line);
    const num = (name: string) => (col(name) >= 0 && r[col(name)] !== '' ? Number(r[col(name)]) : Number.NaN);
    const labels = { accuracy: num('accuracy'), fluency: num('fluency'), total: num('total') };
    const file = r[col('file')];
    return {
      file,
      wavPath: path.join(dir, 'wav', file),
      speaker: col('speaker') >= 0 ? r[col('speaker')] : file,
      text: r[col('text')],
      labels: Number.isFinite(labels.accuracy) ? labels : null,
      wordAccuracy: words.get(file) ?? null,
    };
  });
}

function fromTranscripts(dir: string, lang: string): SetTake[] {
  const here = path.join(dir, 'transcripts.tsv');
  const root = existsSync(here) ? dir : path.dirname(dir);
  const [head, ...rows] = readFileSync(path.join(root, 'transcripts.tsv'), 'utf8').trim().split(/\r?\n/);
  const cols = head.split('\t');
  const col = (name: string) => cols.indexOf(name);
  const prefix = path.relative(root, dir);
  return rows
    .map((line) => line.split('\t'))
    .filter((r) => r[col('language')] === lang && (!prefix || r[col('file')].startsWith(`${prefix}/`)))
    .map((r) => ({
      file: r[col('file')],
      wavPath: path.join(root, r[col('file')]),
      speaker: r[col('speaker')],
      text: r[col('text')],
      labels: null,
      wordAccuracy: null,
    }));
}

export function readWordSet(dir: string, lang: string): SetTake[] {
  const takes = existsSync(path.join(dir, 'labels.csv')) ? fromLabels(dir) : fromTranscripts(dir, lang);
  if (!takes.length) throw new Error(`${dir}: no takes in language ${lang}`);
  return takes;
}

export function readTakeAudio(take: SetTake): { samples: Float32Array; sampleRate: number } {
  const wav = decodeWav(readFileSync(take.wavPath));
  return { samples: toMono(wav), sampleRate: wav.sampleRate };
}
