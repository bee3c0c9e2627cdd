/**
 * Utterance features of every EmoDB take under one condition (clean, a bench shift, or training
 * augmentation variant k), cached under scripts/.cache/transfer/ (ignored by git) and keyed by a
 * hash of the analysis and shift code, so a change to either re-extracts and reruns are fast.
 * Missing conditions are extracted by child processes, two at a time (extract.ts).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeVoice } from '../../../src/audio/analysis';
import { runFfmpeg } from '../../demo/ffmpeg';
import { type EmoDbEntry, loadEmoDbAudio, loadEmoDbIndex } from '../../lib/emodb';
import { augment, BENCH_CONDITIONS, type Condition, toPeak } from './conditions';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const cacheRoot = resolve(root, 'scripts', '.cache', 'transfer');

function hashFiles(files: string[]): string {
  const h = createHash('sha1');
  for (const f of files) h.update(f).update(readFileSync(f));
  return h.digest('hex').slice(0, 12);
}

const analysisDir = resolve(root, 'src', 'audio', 'analysis');
/** The files that compute features (the classifier and its model file do not change them). */
const analysisFiles = () =>
  readdirSync(analysisDir)
    .filter((f) => f.endsWith('.ts') && !/^(emotion|index|serialize|speaker-stats)/.test(f))
    .sort()
    .map((f) => join(analysisDir, f));
/** The code that shifts a take (not the bench's evaluation code, which can change freely). */
const SHIFT_FILES = ['channel.ts', 'codec.ts', 'conditions.ts', 'formant-warp.ts', 'time-pitch.ts'].map((f) =>
  join(here, f),
);
/** Key of the clean features (analysis code only) and of shifted ones (analysis + shift code). */
const cleanKey = () => hashFiles(analysisFiles());
const shiftedKey = () => hashFiles([...analysisFiles(), ...SHIFT_FILES]);

/** Condition ids: the bench's, or `aug<k>` for training augmentation variant k (1-based). */
export function conditionById(id: string): Condition {
  const bench = BENCH_CONDITIONS.find((c) => c.id === id);
  if (bench) return bench;
  const m = /^aug(\d+)$/.exec(id);
  if (!m) throw new Error(`unknown condition ${id}`);
  const k = Number(m[1]);
  return {
    id,
    label: `augmentation ${k}`,
    apply: (x, c) => augment(x, c.sampleRate, c.speakerSeed * 97 + k, c.seed * 97 + k),
  };
}

function cacheFile(id: string): string {
  const key = id === 'clean' ? cleanKey() : shiftedKey();
  return join(cacheRoot, key, `${id}.json`);
}

/** Extracts one condition in this process and writes its cache file. */
export function extractCondition(id: string, log = true): void {
  const cond = conditionById(id);
  const entries = loadEmoDbIndex();
  const rows: Record<string, number[]> = {};
  const t0 = Date.now();
  entries.forEach((e: EmoDbEntry, i) => {
    const audio = loadEmoDbAudio(e);
    const shifted =
      cond.id === 'clean'
        ? audio.samples
        : toPeak(
            cond.apply(audio.samples, {
              sampleRate: audio.sampleRate,
              seed: i + 1,
              speakerSeed: Number(e.speaker),
              ffmpeg: runFfmpeg,
            }),
          );
    rows[e.file] = Array.from(analyzeVoice(shifted, audio.sampleRate).features);
    if (log && (i + 1) % 100 === 0) console.error(`  ${id}: ${i + 1}/${entries.length}`);
  });
  const file = cacheFile(id);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(rows));
  renameSync(`${file}.tmp`, file);
  if (log) console.error(`  ${id}: ${entries.length} takes in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

function runChild(id: string): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'extract.ts'), id], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? res() : rej(new Error(`extracting ${id} failed (${code})`))));
  });
}

/** Makes sure every listed condition is cached (extracting the missing ones, `jobs` at a time). */
export async function ensureConditions(ids: string[], jobs = 2): Promise<void> {
  const missing = ids.filter((id) => !existsSync(cacheFile(id)));
  if (missing.length === 0) return;
  console.error(`extracting features for ${missing.length} condition(s): ${missing.join(', ')}`);
  const queue = [...missing];
  await Promise.all(
    Array.from({ length: Math.min(jobs, queue.length) }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) await runChild(id);
    }),
  );
}

/** Features per file name for a cached condition. */
export function loadCondition(id: string): Map<string, Float64Array> {
  const file = cacheFile(id);
  if (!existsSync(file)) throw new Error(`condition ${id} is not extracted (call ensureConditions first)`);
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>;
  return new Map(Object.entries(rows).map(([k, v]) => [k, Float64Array.from(v)]));
}
