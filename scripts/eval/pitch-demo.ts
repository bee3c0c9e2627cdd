/**
 * npm run eval:pitch:demo — every demo line's pitch claims beside Praat's reading of the same clip.
 * Each line's EmoDB take is cut as the demo builder cuts it (scripts/demo/trim-speech.ts); the app's
 * claims are the actor figures a learner reads: the range (figures.pitchRangeSemitones, 5th–95th
 * percentile) and the end movement (compare.ts endMovementSt over the comparison contour). Praat's
 * "To Pitch (ac)" (scripts/eval/praat/pitch-intensity.praat, fitted to the speaker: see praatTrack) on the same clip
 * gives its lowest and highest voiced f0, the same 5th–95th percentile span, and the end movement by
 * the same rule over its own track (20 ms points, median of three). A row is flagged when the range
 * differs from Praat's by more than 3 semitones or the end movement's direction differs by more than
 * 1.5 semitones. Exit code 1 when any row is flagged.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { analyzeVoice } from '../../src/audio/analysis';
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../../src/audio/constants';
import { endMovementSt, prepareContours } from '../../src/audio/scoring/compare';
import { decimate, median, medianSmooth3 } from '../../src/audio/scoring/contour';
import { loadTake, locateEmodb } from '../demo/emodb-dataset';
import { SCENES } from '../demo/scenes';
import { cutSpeechClip } from '../demo/trim-speech';
import { writeWav } from '../demo/wav-io';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const script = resolve(here, 'praat', 'pitch-intensity.praat');
const RANGE_TOLERANCE_ST = 3;
const END_TOLERANCE_ST = 1.5;

function percentile(sorted: number[], q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

async function praatPass(
  wavPath: string,
  floor: number,
  ceiling: number,
): Promise<{ t: number; f0: number }[]> {
  const out = await run(
    'praat',
    ['--run', script, wavPath, String(Math.round(floor)), String(Math.round(ceiling))],
    {
      maxBuffer: 16 << 20,
    },
  );
  return out.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t').map(Number))
    .map(([t, f0]) => ({ t, f0 }));
}

/**
 * Praat fitted to the speaker: a first pass over the app's whole range, then a second with the
 * ceiling an octave above the first pass's median, so Praat's own fricative and doubling errors
 * (it reads the "sch" of "Eisschrank" at ~490 Hz too) do not stand in for the voice. The floor stays
 * at the app's: creak an octave down is voice, and Praat reads it.
 */
async function praatTrack(wavPath: string): Promise<{ t: number; f0: number }[]> {
  const first = await praatPass(wavPath, PITCH_MIN_HZ, PITCH_MAX_HZ);
  const voiced = first
    .filter((p) => p.f0 > 0)
    .map((p) => p.f0)
    .sort((x, y) => x - y);
  if (voiced.length < 5) return first;
  return praatPass(wavPath, PITCH_MIN_HZ, Math.min(PITCH_MAX_HZ, 2 * percentile(voiced, 0.5)));
}

async function main(): Promise<void> {
  const dir = locateEmodb(repoRoot);
  const work = mkdtempSync(join(tmpdir(), 'pitch-demo-'));
  const fmt = (v: number | null, d = 1) => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(d));
  console.log(
    '| film | line | take | app range st | Praat range st (5–95) | Praat lowest–highest Hz | app end st | Praat end st | ok |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  let flagged = 0;
  let rows = 0;
  try {
    for (const scene of SCENES) {
      for (const [i, line] of scene.lines.entries()) {
        const clip = cutSpeechClip(loadTake(dir, line.take));
        const wavPath = join(work, `${line.take}.wav`);
        writeFileSync(wavPath, writeWav({ samples: clip.samples, sampleRate: clip.sampleRate }));
        const a = analyzeVoice(clip.samples, clip.sampleRate);
        const c = prepareContours(a);
        const appEnd = endMovementSt(c.pitchSt, c.stepSeconds);
        const appRange = a.figures.pitchRangeSemitones;

        const praat = await praatTrack(wavPath);
        const voiced = praat.filter((p) => p.f0 > 0).map((p) => p.f0);
        const sorted = [...voiced].sort((x, y) => x - y);
        const praatRange =
          sorted.length >= 5 ? 12 * Math.log2(percentile(sorted, 0.95) / percentile(sorted, 0.05)) : null;
        const ref = median(voiced);
        const st = Float64Array.from(praat, (p) => (p.f0 > 0 ? 12 * Math.log2(p.f0 / ref) : Number.NaN));
        const praatStep = praat.length > 1 ? praat[1].t - praat[0].t : 0.01;
        const factor = Math.max(1, Math.round(c.stepSeconds / praatStep));
        const praatEnd = endMovementSt(medianSmooth3(decimate(st, factor)), praatStep * factor);

        const rangeOk =
          appRange !== null && praatRange !== null && Math.abs(appRange - praatRange) <= RANGE_TOLERANCE_ST;
        const endOk =
          appEnd !== null &&
          praatEnd !== null &&
          (Math.abs(appEnd - praatEnd) <= END_TOLERANCE_ST || Math.sign(appEnd) === Math.sign(praatEnd));
        const ok = rangeOk && endOk;
        rows++;
        if (!ok) flagged++;
        console.log(
          `| ${scene.id} | ${i + 1} | ${line.take} | ${fmt(appRange)} | ${fmt(praatRange)} | ` +
            `${fmt(sorted[0] ?? null, 0)}–${fmt(sorted.at(-1) ?? null, 0)} | ${fmt(appEnd)} | ${fmt(praatEnd)} | ${ok ? 'yes' : 'NO'} |`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `\n${rows} lines, ${flagged} differ from Praat beyond ${RANGE_TOLERANCE_ST} st (range) or in direction (end)`,
  );
  if (rows === 0 || flagged > 0) process.exitCode = 1;
}

await main();
