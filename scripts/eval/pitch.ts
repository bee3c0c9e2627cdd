/**
 * npm run eval:pitch — our pitch tracker and intensity against Praat on the EmoDB files.
 * For every file: Praat's "To Pitch (ac)" (scripts/eval/praat/pitch-intensity.praat, same
 * 60–600 Hz range, 10 ms step) on the original wav, and analyzeVoice on the padding-trimmed audio
 * (as the app sees it). Frames are aligned by centre time. Prints:
 *   GPE: of the frames voiced in both, the share more than 20 % apart (goal <= 2 %)
 *   VDE: of all compared frames, the share with a different voiced/unvoiced decision (goal <= 8 %)
 * and the intensity agreement (ours + 93.98 dB vs Praat's dB SPL) over frames above Praat's
 * 40 dB. Praat output is cached under the OS temp dir. Options: --limit N (first N files).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../../src/audio/constants';
import { analyzeVoice } from '../../src/audio/analysis';
import { type EmoDbEntry, loadEmoDbAudio, loadEmoDbIndex } from '../lib/emodb';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, 'praat', 'pitch-intensity.praat');
/** Praat's intensity is dB re 2e-5 Pa with samples taken as pascals: ours (dBFS) + 20*log10(1/2e-5). */
const PRAAT_DB_OFFSET = 20 * Math.log10(1 / 2e-5);

interface PraatFrame {
  t: number;
  f0: number;
  db: number;
}

async function praatAvailable(): Promise<boolean> {
  try {
    await run('praat', ['--version']);
    return true;
  } catch {
    return false;
  }
}

async function praatFrames(entry: EmoDbEntry, cacheDir: string, key: string): Promise<PraatFrame[]> {
  const cached = join(cacheDir, `${entry.file}.${key}.tsv`);
  let text: string;
  if (existsSync(cached)) text = readFileSync(cached, 'utf8');
  else {
    const out = await run(
      'praat',
      ['--run', script, entry.path, String(PITCH_MIN_HZ), String(PITCH_MAX_HZ)],
      {
        maxBuffer: 16 << 20,
      },
    );
    text = out.stdout;
    writeFileSync(cached, text);
  }
  return text
    .trim()
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [t, f0, db] = l.split('\t').map(Number);
      return { t, f0, db };
    });
}

async function main(): Promise<void> {
  if (!(await praatAvailable())) {
    console.error('Praat is not installed (no `praat` on PATH). Install it: apt-get install -y praat');
    process.exit(3);
  }
  const args = process.argv.slice(2);
  const limitAt = args.indexOf('--limit');
  let entries = loadEmoDbIndex();
  if (limitAt >= 0) entries = entries.slice(0, Number(args[limitAt + 1]));
  const key = createHash('sha1')
    .update(readFileSync(script))
    .update(`${PITCH_MIN_HZ}-${PITCH_MAX_HZ}`)
    .digest('hex')
    .slice(0, 10);
  const cacheDir = join(tmpdir(), 'film-speech-trainer', 'praat-pitch');
  mkdirSync(cacheDir, { recursive: true });

  // Praat runs two at a time (two cores); our analysis runs in this process meanwhile.
  const praat: PraatFrame[][] = new Array(entries.length);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      praat[i] = await praatFrames(entries[i], cacheDir, key);
    }
  };
  await Promise.all([worker(), worker()]);

  let both = 0;
  let gross = 0;
  let compared = 0;
  let vde = 0;
  let praatVoiced = 0;
  let oursVoiced = 0;
  let dbN = 0;
  let dbAbs = 0;
  let dbBias = 0;
  const perFileGpe: Array<[string, number]> = [];
  for (let i = 0; i < entries.length; i++) {
    const audio = loadEmoDbAudio(entries[i]);
    const a = analyzeVoice(audio.samples, audio.sampleRate);
    const hop = a.frames.hopSeconds;
    let fileBoth = 0;
    let fileGross = 0;
    for (const p of praat[i]) {
      const k = Math.round(p.t / hop - 0.5);
      if (k < 0 || k >= a.frames.f0Hz.length || Math.abs((k + 0.5) * hop - p.t) > hop / 2 + 1e-9) continue;
      const ours = a.frames.f0Hz[k];
      compared++;
      const pv = p.f0 > 0;
      const ov = ours > 0;
      if (pv) praatVoiced++;
      if (ov) oursVoiced++;
      if (pv !== ov) vde++;
      if (pv && ov) {
        both++;
        fileBoth++;
        if (Math.abs(ours - p.f0) / p.f0 > 0.2) {
          gross++;
          fileGross++;
        }
      }
      if (p.db > 40) {
        const d = a.frames.intensityDb[k] + PRAAT_DB_OFFSET - p.db;
        dbN++;
        dbAbs += Math.abs(d);
        dbBias += d;
      }
    }
    if (fileBoth > 0) perFileGpe.push([entries[i].file, fileGross / fileBoth]);
  }
  perFileGpe.sort((x, y) => y[1] - x[1]);
  const pct = (v: number) => `${(100 * v).toFixed(2)} %`;
  console.log(`EmoDB files: ${entries.length}; frames compared: ${compared}`);
  console.log(`voiced frames: Praat ${praatVoiced}, ours ${oursVoiced}, both ${both}`);
  console.log(`GPE (voiced in both, > 20 % apart): ${pct(gross / Math.max(1, both))}  (goal <= 2 %)`);
  console.log(`VDE (voicing decision differs):     ${pct(vde / Math.max(1, compared))}  (goal <= 8 %)`);
  console.log(
    `intensity vs Praat (frames > 40 dB, n=${dbN}): mean |diff| ${(dbAbs / Math.max(1, dbN)).toFixed(2)} dB, ` +
      `mean diff ${(dbBias / Math.max(1, dbN)).toFixed(2)} dB`,
  );
  console.log(
    `worst files by GPE: ${perFileGpe
      .slice(0, 5)
      .map(([f, g]) => `${f} ${pct(g)}`)
      .join(', ')}`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
