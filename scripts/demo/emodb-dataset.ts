/**
 * Access to the local EmoDB copy (../shared/datasets/emodb): labels.csv rows and decoded takes.
 * The dataset is a build-time input only; the built films and fixtures are committed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Emotion, emotion } from '../../src/api/contract';
import { type MonoPcm, readWav } from './wav-io';

export interface TakeLabel {
  file: string;
  speaker: string;
  text: string;
  emotion: Emotion;
  sex: string;
  recognitionPct: number;
  naturalnessPct: number;
  origDurationS: number;
  truncated: boolean;
}

export const EXPECTED_SAMPLE_RATE = 22_050;

export function locateEmodb(repoRoot: string): string {
  const dir = path.resolve(process.env.EMODB_DIR ?? path.join(repoRoot, '..', 'shared', 'datasets', 'emodb'));
  if (!existsSync(path.join(dir, 'labels.csv')) || !existsSync(path.join(dir, 'wav'))) {
    throw new Error(
      `EmoDB not found at ${dir} (expected labels.csv and wav/). Put the dataset there or set EMODB_DIR to its folder.`,
    );
  }
  return dir;
}

export function readLabels(dir: string): Map<string, TakeLabel> {
  const [header, ...rows] = readFileSync(path.join(dir, 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const columns = header.split(',');
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`labels.csv has no "${name}" column`);
    return index;
  };
  const c = {
    file: at('file'),
    speaker: at('speaker'),
    text: at('text'),
    emotion: at('emotion'),
    sex: at('sex'),
    recognition: at('human_recognition_pct'),
    naturalness: at('naturalness_pct'),
    duration: at('orig_duration_s'),
    truncated: at('truncated_to_2s'),
  };
  const labels = new Map<string, TakeLabel>();
  for (const row of rows) {
    const f = row.split(',');
    const stem = f[c.file].replace(/\.wav$/, '');
    labels.set(stem, {
      file: f[c.file],
      speaker: f[c.speaker],
      text: f[c.text],
      emotion: emotion.parse(f[c.emotion]),
      sex: f[c.sex],
      recognitionPct: Number(f[c.recognition]),
      naturalnessPct: Number(f[c.naturalness]),
      origDurationS: Number(f[c.duration]),
      truncated: f[c.truncated] === '1',
    });
  }
  return labels;
}

/** A take's label, refusing takes this copy cut short: their sentence is incomplete. */
export function labelOf(labels: Map<string, TakeLabel>, take: string): TakeLabel {
  const label = labels.get(take);
  if (!label) throw new Error(`EmoDB take ${take} is not in labels.csv`);
  if (label.truncated) {
    throw new Error(
      `EmoDB take ${take} was cut to 2 s in this copy (truncated_to_2s = 1); choose a complete take`,
    );
  }
  return label;
}

export function loadTake(dir: string, take: string): MonoPcm {
  const file = path.join(dir, 'wav', `${take}.wav`);
  if (!existsSync(file)) throw new Error(`EmoDB file missing: ${file}`);
  const pcm = readWav(readFileSync(file), file);
  if (pcm.sampleRate !== EXPECTED_SAMPLE_RATE) {
    throw new Error(`${file}: expected ${EXPECTED_SAMPLE_RATE} Hz, got ${pcm.sampleRate} Hz`);
  }
  return pcm;
}
