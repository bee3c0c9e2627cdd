/**
 * Access to the local line-check copy (../shared/datasets/line-check): transcripts.tsv rows and
 * decoded clips. English (LJSpeech) and Mandarin (AISHELL-1) read speech for the narration films;
 * a build-time input only, the built films are committed (docs/demo-content.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MonoPcm, readWav } from './wav-io';

export interface Transcript {
  /** Path inside the dataset, e.g. `en/ljspeech/LJ001-0008.wav`. */
  file: string;
  speaker: string;
  language: string;
  text: string;
  licence: string;
}

export const LINE_CHECK_SAMPLE_RATE = 16_000;

export function locateLineCheck(repoRoot: string): string {
  const dir = path.resolve(
    process.env.LINE_CHECK_DIR ?? path.join(repoRoot, '..', 'shared', 'datasets', 'line-check'),
  );
  if (!existsSync(path.join(dir, 'transcripts.tsv'))) {
    throw new Error(
      `line-check set not found at ${dir} (expected transcripts.tsv). Put the dataset there or set LINE_CHECK_DIR to its folder.`,
    );
  }
  return dir;
}

export function readTranscripts(dir: string): Map<string, Transcript> {
  const [header, ...rows] = readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split(/\r?\n/);
  const columns = header.split('\t');
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`transcripts.tsv has no "${name}" column`);
    return index;
  };
  const c = { file: at('file'), speaker: at('speaker'), language: at('language'), text: at('text') };
  const licence = at('licence');
  const transcripts = new Map<string, Transcript>();
  for (const row of rows) {
    const f = row.split('\t');
    transcripts.set(f[c.file], {
      file: f[c.file],
      speaker: f[c.speaker],
      language: f[c.language],
      text: f[c.text],
      licence: f[licence],
    });
  }
  return transcripts;
}

export function transcriptOf(transcripts: Map<string, Transcript>, file: string): Transcript {
  const t = transcripts.get(file);
  if (!t) throw new Error(`line-check file ${file} is not in transcripts.tsv`);
  return t;
}

export function loadClip(dir: string, file: string): MonoPcm {
  const full = path.join(dir, file);
  if (!existsSync(full)) throw new Error(`line-check file missing: ${full}`);
  const pcm = readWav(readFileSync(full), full);
  if (pcm.sampleRate !== LINE_CHECK_SAMPLE_RATE) {
    throw new Error(`${full}: expected ${LINE_CHECK_SAMPLE_RATE} Hz, got ${pcm.sampleRate} Hz`);
  }
  return pcm;
}
