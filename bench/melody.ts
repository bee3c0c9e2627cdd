/**
 * npm run bench:melody — "your voice with the actor's melody" on real takes.
 *
 * Pairs of the same sentence by two speakers (one is the take, the other the actor), across sexes:
 * EmoDB (German) and, where present, nemo-dev (Polish; evaluation only, nothing here is fitted).
 * Every take is resampled to the app's 16 kHz first, as the app's takes are. For each pair:
 * - pitch: the output tracked by our tracker and by Praat (scripts/eval/praat/pitch-intensity.praat)
 *   against the target — the actor's contour in semitones re the actor's median, moved onto the
 *   learner's median — over output frames voiced in both where the actor is voiced:
 *   median |error| (goal ≤ 0.5 st) and the share over 1 st (goal ≤ 5 %); again over the frames whose
 *   source moment in the take is voiced (elsewhere there is no voice to move: the take says the
 *   line with a voiceless sound, or the alignment pairs a pause with speech);
 * - timing: the comparison's DTW between output and actor, median distance of the path from the
 *   diagonal (goal ≤ 30 ms); output / actor duration (goal 1 ± 0.05);
 * - timbre: median F1, F2, F3 ratio output / take over matched voiced frames (goal within 5 %);
 * - artefacts: largest sample step of the output / the take's own largest step (goal ≤ 1), NaN
 *   count, peak dBFS (goal ≤ 0);
 * - speed: CPU ms of the resynthesis and of reading its pitch back for the overlay, per second of
 *   take, beside analysing the take (the floor).
 * Options: --pairs N per corpus and direction (default 12), --no-praat.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HOP_SECONDS, PITCH_MAX_HZ, PITCH_MIN_HZ, TARGET_SAMPLE_RATE } from '../src/audio/constants';
import { analyzeVoice, trackPitch } from '../src/audio/analysis';
import { FormantAnalyzer } from '../src/audio/analysis/formants';
import type { VoiceAnalysis } from '../src/audio/analysis/types';
import { resample } from '../src/audio/dsp/resample';
import { decodeWav, encodeWav16, toMono } from '../src/audio/dsp/wav';
import { compareVoices } from '../src/audio/scoring/compare';
import { median } from '../src/audio/scoring/contour';
import { melodyPlan, resynthesiseWithMelody } from '../src/audio/scoring/melody';
import { plotMelodyPitch } from '../src/audio/scoring/score';
import { loadEmoDbAudio, loadEmoDbIndex } from '../scripts/lib/emodb';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const praatScript = resolve(here, '..', 'scripts', 'eval', 'praat', 'pitch-intensity.praat');

interface Utterance {
  id: string;
  speaker: string;
  sex: 'm' | 'f';
  text: string;
  emotion: string;
  load(): { samples: Float32Array; sampleRate: number };
}

interface PairFigures {
  corpus: string;
  direction: string;
  ours: number[];
  /** Errors of our tracker where the take itself is voiced at the moment the output frame came from. */
  oursMovable: number[];
  praat: number[];
  timingMs: number;
  durationRatio: number;
  formantRatio: [number, number, number];
  stepRatio: number;
  nan: number;
  peakDbfs: number;
  cpuMsPerSecond: number;
  floorMsPerSecond: number;
  label: string;
}

function to16k(x: { samples: Float32Array; sampleRate: number }): Float32Array {
  return x.sampleRate === TARGET_SAMPLE_RATE
    ? x.samples
    : resample(x.samples, x.sampleRate, TARGET_SAMPLE_RATE);
}

function emodbUtterances(): Utterance[] {
  return loadEmoDbIndex()
    .filter((e) => !e.truncated)
    .map((e) => ({
      id: e.file,
      speaker: e.speaker,
      sex: e.sex,
      text: e.text,
      emotion: e.emotion,
      load: () => loadEmoDbAudio(e),
    }));
}

function nemoUtterances(): Utterance[] {
  const dir = process.env.NEMO_DIR ?? resolve(here, '..', '..', 'shared', 'datasets', 'nemo-dev');
  const labels = join(dir, 'labels.csv');
  if (!existsSync(labels)) return [];
  const lines = readFileSync(labels, 'utf8').trim().split(/\r?\n/).slice(1);
  return lines.map((line) => {
    const c = line.split(',');
    return {
      id: c[0],
      speaker: c[1],
      sex: c[3] === 'female' ? 'f' : 'm',
      text: c[5],
      emotion: c[2],
      load: () => {
        const wav = decodeWav(readFileSync(join(dir, 'wav', c[0])));
        return { samples: toMono(wav), sampleRate: wav.sampleRate };
      },
    } satisfies Utterance;
  });
}

/**
 * Deterministic pairs as a learner meets them: the same text in the same emotion, the take by one
 * sex and the actor by the other, cycling through texts and emotions so no one emotion dominates.
 */
function pairs(list: Utterance[], takeSex: 'm' | 'f', count: number): Array<[Utterance, Utterance]> {
  const groups = new Map<string, Utterance[]>();
  for (const u of list) {
    const key = `${u.text}|${u.emotion}`;
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  const keys = [...groups.keys()].sort();
  const out: Array<[Utterance, Utterance]> = [];
  const byId = (a: Utterance, b: Utterance) => a.id.localeCompare(b.id);
  for (let round = 0; out.length < count && round < 4; round++) {
    const seenEmotion = new Map<string, number>();
    for (const key of keys) {
      const group = groups.get(key) ?? [];
      const takes = group.filter((u) => u.sex === takeSex).sort(byId);
      const actors = group.filter((u) => u.sex !== takeSex).sort(byId);
      if (takes.length <= round || actors.length === 0) continue;
      // At most a fair share of the pairs per emotion in each round.
      const emotion = group[0].emotion;
      if ((seenEmotion.get(emotion) ?? 0) >= Math.ceil(count / 5)) continue;
      seenEmotion.set(emotion, (seenEmotion.get(emotion) ?? 0) + 1);
      out.push([takes[round], actors[(round * 3 + 1) % actors.length]]);
      if (out.length >= count) break;
    }
  }
  return out;
}

async function praatF0(samples: Float32Array, dir: string): Promise<Array<{ t: number; f0: number }>> {
  const file = join(dir, 'out.wav');
  writeFileSync(file, Buffer.from(encodeWav16(samples, TARGET_SAMPLE_RATE)));
  const { stdout } = await run('praat', [
    '--run',
    praatScript,
    file,
    String(PITCH_MIN_HZ),
    String(PITCH_MAX_HZ),
  ]);
  return stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [t, f0] = l.split('\t').map(Number);
      return { t, f0 };
    });
}

function cpuMs(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function formantTracks(x: Float32Array, a: VoiceAnalysis): [Float32Array, Float32Array, Float32Array] {
  // The formant analyser runs on 8 kHz, as analysis does.
  const x8 = resample(x, TARGET_SAMPLE_RATE, 8000);
  const frames = a.frames.f0Hz.length;
  const mask = Uint8Array.from(a.frames.f0Hz, (f) => (f > 0 ? 1 : 0));
  const out: [Float32Array, Float32Array, Float32Array] = [
    new Float32Array(frames),
    new Float32Array(frames),
    new Float32Array(frames),
  ];
  new FormantAnalyzer(8000).run(x8, 80, frames, mask, out[0], out[1], out[2]);
  return out;
}

function maxStep(x: Float32Array): number {
  let m = 0;
  for (let i = 1; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - x[i - 1]));
  return m;
}

async function measurePair(
  corpus: string,
  take: Utterance,
  actor: Utterance,
  praatDir: string | null,
): Promise<PairFigures | string> {
  const x = to16k(take.load());
  const y = to16k(actor.load());
  const learner = analyzeVoice(x, TARGET_SAMPLE_RATE);
  const actorVoice = analyzeVoice(y, TARGET_SAMPLE_RATE);
  const comparison = compareVoices(learner, actorVoice);
  const input = { take: x, sampleRate: TARGET_SAMPLE_RATE, learner, actor: actorVoice, comparison };
  let result = resynthesiseWithMelody(input);
  const cpu = cpuMs(() => {
    result = resynthesiseWithMelody(input);
    // The service reads the made audio's pitch back for the overlay too (server/ai/score-task.ts).
    if (result.ok) plotMelodyPitch(comparison, trackPitch(result.samples, result.sampleRate), HOP_SECONDS);
  });
  const floor = cpuMs(() => analyzeVoice(x, TARGET_SAMPLE_RATE));
  if (!result.ok) return `${take.id} → ${actor.id}: ${result.reason}`;
  const out = result.samples;
  const outVoice = analyzeVoice(out, TARGET_SAMPLE_RATE);
  const plan = melodyPlan(input, result.learnerMedianHz);

  // Target at each output frame: only where the actor itself is voiced (no gap-filled targets).
  const hop = outVoice.frames.hopSeconds;
  const target = (t: number): number => {
    const k = Math.floor(t / actorVoice.frames.hopSeconds);
    if (!(actorVoice.frames.f0Hz[k] > 0)) return 0;
    return plan.targetF0(t);
  };
  const ours: number[] = [];
  const oursMovable: number[] = [];
  for (let k = 0; k < outVoice.frames.f0Hz.length; k++) {
    const f = outVoice.frames.f0Hz[k];
    const g = target((k + 0.5) * hop);
    if (!(f > 0 && g > 0)) continue;
    const e = Math.abs(12 * Math.log2(f / g));
    ours.push(e);
    const src = Math.round(plan.sourceTime((k + 0.5) * hop) / hop - 0.5);
    if (learner.frames.f0Hz[src] > 0) oursMovable.push(e);
  }
  const praat: number[] = [];
  if (praatDir) {
    for (const p of await praatF0(out, praatDir)) {
      const g = target(p.t);
      if (p.f0 > 0 && g > 0) praat.push(Math.abs(12 * Math.log2(p.f0 / g)));
    }
  }

  // Timing: the output against the actor through the same comparison the app uses.
  const back = compareVoices(outVoice, actorVoice);
  const step = back.actor.stepSeconds;
  const oStart = back.learner.fromFrame * hop;
  const aStart = back.actor.fromFrame * actorVoice.frames.hopSeconds;
  const dev: number[] = [];
  for (let s = 0; s < back.pathActor.length; s++) {
    dev.push(
      Math.abs(oStart + (back.pathLearner[s] + 0.5) * step - (aStart + (back.pathActor[s] + 0.5) * step)),
    );
  }

  // Timbre: formants of output frames against the take's frames they were taken from.
  const [o1, o2, o3] = formantTracks(out, outVoice);
  const [t1, t2, t3] = formantTracks(x, learner);
  const ratios: [number[], number[], number[]] = [[], [], []];
  for (let k = 0; k < o1.length; k++) {
    const src = Math.round(plan.sourceTime((k + 0.5) * hop) / hop - 0.5);
    if (src < 0 || src >= t1.length) continue;
    const pairsOf: Array<[number, number]> = [
      [o1[k], t1[src]],
      [o2[k], t2[src]],
      [o3[k], t3[src]],
    ];
    pairsOf.forEach(([o, t], i) => {
      if (o > 0 && t > 0) ratios[i].push(o / t);
    });
  }
  let peak = 0;
  let nan = 0;
  for (const v of out) {
    if (!Number.isFinite(v)) nan++;
    else peak = Math.max(peak, Math.abs(v));
  }
  return {
    corpus,
    direction: `${take.sex}→${actor.sex}`,
    ours,
    oursMovable,
    praat,
    timingMs: 1000 * median(dev),
    durationRatio: out.length / y.length,
    formantRatio: [median(ratios[0]), median(ratios[1]), median(ratios[2])],
    stepRatio: maxStep(out) / maxStep(x),
    nan,
    peakDbfs: 20 * Math.log10(Math.max(peak, 1e-9)),
    cpuMsPerSecond: cpu / (x.length / TARGET_SAMPLE_RATE),
    floorMsPerSecond: floor / (x.length / TARGET_SAMPLE_RATE),
    label: `${take.id} → ${actor.id}`,
  };
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

function summarise(name: string, rows: PairFigures[]): void {
  if (rows.length === 0) {
    console.log(`${name}: no pairs`);
    return;
  }
  const all = (k: 'ours' | 'oursMovable' | 'praat') => rows.flatMap((r) => r[k]);
  const pitch = (k: 'ours' | 'oursMovable' | 'praat') => {
    const e = all(k);
    if (e.length === 0) return 'n/a';
    return `median ${median(e).toFixed(2)} st, > 1 st ${pct(e.filter((v) => v > 1).length / e.length)} (${e.length} frames)`;
  };
  const med = (f: (r: PairFigures) => number) => median(rows.map(f));
  const worst = (f: (r: PairFigures) => number) => Math.max(...rows.map(f));
  console.log(`\n${name} (${rows.length} pairs)`);
  console.log(`  pitch vs target, our tracker : ${pitch('ours')}   goal ≤ 0.5 st, ≤ 5 %`);
  console.log(`  pitch vs target, Praat       : ${pitch('praat')}`);
  console.log(`  same, where the take is voiced: ${pitch('oursMovable')} (our tracker)`);
  console.log(
    `  timing off the diagonal      : median ${med((r) => r.timingMs).toFixed(1)} ms, worst pair ${worst((r) => r.timingMs).toFixed(1)} ms   goal ≤ 30 ms`,
  );
  console.log(
    `  duration output / actor      : ${Math.min(...rows.map((r) => r.durationRatio)).toFixed(3)}–${worst((r) => r.durationRatio).toFixed(3)}   goal 1 ± 0.05`,
  );
  const f = [0, 1, 2].map((i) => med((r) => r.formantRatio[i]));
  console.log(
    `  F1 / F2 / F3 output / take   : ${f.map((v) => v.toFixed(3)).join(' / ')} (median over pairs)   goal within 5 %`,
  );
  console.log(
    `  largest step output / take   : median ${med((r) => r.stepRatio).toFixed(2)}, worst ${worst((r) => r.stepRatio).toFixed(2)}   goal ≤ 1`,
  );
  console.log(
    `  NaN samples / peak           : ${rows.reduce((a, r) => a + r.nan, 0)} / worst ${worst((r) => r.peakDbfs).toFixed(2)} dBFS   goal 0 / ≤ 0`,
  );
  console.log(
    `  CPU per second of take       : ${med((r) => r.cpuMsPerSecond).toFixed(1)} ms (floor, analysis alone: ${med((r) => r.floorMsPerSecond).toFixed(1)} ms)   goal ≤ 30 ms`,
  );
  const byError = [...rows].sort((a, b) => median(b.ours) - median(a.ours)).slice(0, 3);
  console.log(
    `  worst pitch pairs            : ${byError.map((r) => `${r.label} ${median(r.ours).toFixed(2)} st`).join('; ')}`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const countAt = args.indexOf('--pairs');
  const count = countAt >= 0 ? Number(args[countAt + 1]) : 12;
  let praatDir: string | null = null;
  if (!args.includes('--no-praat')) {
    try {
      await run('praat', ['--version']);
      praatDir = mkdtempSync(join(tmpdir(), 'bench-melody-'));
    } catch {
      console.log('Praat not installed (apt-get install praat): Praat column left out');
    }
  }
  const corpora: Array<[string, Utterance[]]> = [['EmoDB', emodbUtterances()]];
  const nemo = nemoUtterances();
  if (nemo.length > 0) corpora.push(['nemo-dev', nemo]);
  else console.log('nemo-dev not found beside the repository: EmoDB only');
  for (const [name, list] of corpora) {
    const rows: PairFigures[] = [];
    const refused: string[] = [];
    for (const sex of ['m', 'f'] as const) {
      for (const [take, actor] of pairs(list, sex, count)) {
        const r = await measurePair(name, take, actor, praatDir);
        if (typeof r === 'string') refused.push(r);
        else rows.push(r);
      }
    }
    summarise(name, rows);
    for (const dir of ['m→f', 'f→m'])
      summarise(
        `${name} ${dir}`,
        rows.filter((r) => r.direction === dir),
      );
    if (refused.length > 0) console.log(`  refused: ${refused.join('; ')}`);
  }
  if (praatDir) rmSync(praatDir, { recursive: true, force: true });
}

await main();
