/**
 * EmoDB loader for the evaluation and training scripts. Reads ../shared/datasets/emodb
 * (or $EMODB_DIR), parses labels.csv, decodes with the app's own wav codec and trims the
 * trailing digital-zero padding this copy carries (SOURCE.md: 126 files were padded to 2 s;
 * left in, the padding length would leak the emotion through duration features).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emotion } from '../../src/api/contract';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';

export interface EmoDbEntry {
  file: string;
  path: string;
  speaker: string;
  text: string;
  emotion: Emotion;
  sex: 'm' | 'f';
  truncated: boolean;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function emoDbDir(): string {
  return process.env.EMODB_DIR ?? resolve(repoRoot, '..', 'shared', 'datasets', 'emodb');
}

/** Reads labels.csv; exits with a clear message when the dataset is absent. */
export function loadEmoDbIndex(): EmoDbEntry[] {
  const dir = emoDbDir();
  const labels = join(dir, 'labels.csv');
  if (!existsSync(labels)) {
    console.error(
      `EmoDB not found: expected ${labels}.\n` +
        'Put the dataset at ../shared/datasets/emodb (labels.csv + wav/) next to the repository, or set EMODB_DIR.',
    );
    process.exit(2);
  }
  const lines = readFileSync(labels, 'utf8').trim().split(/\r?\n/);
  const header = lines[0].split(',');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`labels.csv has no column ${name}`);
    return i;
  };
  const [cFile, cSpeaker, cText, cEmotion, cSex, cTrunc] = [
    'file',
    'speaker',
    'text',
    'emotion',
    'sex',
    'truncated_to_2s',
  ].map(col);
  return lines.slice(1).map((line) => {
    const c = line.split(',');
    return {
      file: c[cFile],
      path: join(dir, 'wav', c[cFile]),
      speaker: c[cSpeaker],
      text: c[cText],
      emotion: c[cEmotion] as Emotion,
      sex: c[cSex] as 'm' | 'f',
      truncated: c[cTrunc] === '1',
    };
  });
}

/** Index of the last non-zero sample + 1: drops trailing exact-zero padding. */
export function trimTrailingZeros(x: Float32Array): Float32Array {
  let end = x.length;
  while (end > 0 && x[end - 1] === 0) end--;
  return x.subarray(0, end);
}

/** Mono samples of one EmoDB file with the zero padding trimmed. */
export function loadEmoDbAudio(entry: EmoDbEntry): { sampleRate: number; samples: Float32Array } {
  const wav = decodeWav(readFileSync(entry.path));
  return { sampleRate: wav.sampleRate, samples: trimTrailingZeros(toMono(wav)) };
}
