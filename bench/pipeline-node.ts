/**
 * The encoder worker's own code run in Node on a synthetic 10-minute 48 kHz take with a subtitle
 * window every 3 s, beside its floor, the resampler alone on the same input in the same chunks:
 *
 *   whole path  = TakePipeline.ingest: gap check → StreamingResampler → LivePitch (+ the 10 Hz stats
 *                 the page gets) → WindowSlicer → encodeWav16 per window
 *   floor       = StreamingResampler.process into a preallocated output, nothing else
 *
 * The two alternate (floor, path, floor, path, …) so both see the same machine; the medians are
 * compared. Peak memory is sampled in one more, untimed, whole-path run.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { resample, StreamingResampler } from '../src/audio/dsp/resample';
import { TakePipeline } from '../src/workers/take-pipeline';

const RATE = 48_000;
const CHUNK = 2048; // what the worklet sends
const MINUTES = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export interface Timed {
  wallMs: number;
  /** CPU time of this process: less sensitive than wall time to other work on a shared machine. */
  cpuMs: number;
  realTimeFactor: number;
  cpuRealTimeFactor: number;
}

export interface NodeBenchResult {
  seconds: number;
  blocks: number;
  windows: number;
  /** Median over the rounds. */
  resampler: Timed;
  path: Timed;
  /** Whole path ÷ resampler alone, by CPU time (goal ≤ 2). */
  costRatio: number;
  peakHeapDeltaMb: number;
  peakArrayBuffersDeltaMb: number;
  peakRssDeltaMb: number;
  /** Most windows open at once, and what they hold at most (16 kHz float32). */
  peakOpenWindows: number;
  /** What holding the whole take as 48 kHz float32 would cost, for comparison. */
  wholeTakeMb: number;
  rounds: number;
}

/** A voice-like test signal: 10 s made up front and cycled, so the loops measure only the code. */
function voiceLoop(): Float32Array {
  const loop = new Float32Array(RATE * 10);
  let phase = 0;
  let seed = 1;
  for (let i = 0; i < loop.length; i++) {
    const f0 = 120 + 40 * Math.sin((2 * Math.PI * i) / (RATE * 2));
    phase += (2 * Math.PI * f0) / RATE;
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    loop[i] = 0.3 * Math.sin(phase) + 0.1 * Math.sin(3 * phase) + 0.01 * (seed / 0x7fffffff - 0.5);
  }
  return loop;
}

function timed(seconds: number, run: () => void): Timed {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  run();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    wallMs: Math.round(wallMs),
    cpuMs: Math.round(cpuMs),
    realTimeFactor: Math.round((seconds * 1000) / wallMs),
    cpuRealTimeFactor: Math.round((seconds * 1000) / cpuMs),
  };
}

interface KernelChoice {
  /** false: the JS dot-product kernel (what engines without WebAssembly SIMD run). */
  simd?: boolean;
}

function resamplerAlone(loop: Float32Array, seconds: number, k: KernelChoice): Timed {
  const r = new StreamingResampler(RATE, 16_000, { maxChunk: 16384, ...k });
  const out = new Float32Array(r.maxOutput(CHUNK));
  const total = seconds * RATE;
  return timed(seconds, () => {
    for (let at = 0; at < total; at += CHUNK) {
      const from = at % loop.length;
      r.process(loop.subarray(from, from + CHUNK), out);
    }
    r.flush(out);
  });
}

interface PathRun extends Timed {
  windows: number;
  peakHeap: number;
  peakAb: number;
  peakRss: number;
  peakOpen: number;
}

/** V8's collector, reachable without starting Node with --expose-gc (a bench may, a product never). */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/**
 * The whole path over the take. With `sampleMemory`, every 64 blocks (~2.7 s of audio, less than a
 * window) garbage is collected and process.memoryUsage() read, so the peak is what the path holds,
 * not what it dropped and the collector had not yet reclaimed; that costs time, so those runs are
 * not the timed ones.
 */
function wholePath(loop: Float32Array, seconds: number, k: KernelChoice, sampleMemory = false): PathRun {
  const subtitles = Array.from({ length: Math.floor((seconds - 3) / 3) }, (_, i) => ({
    id: `line-${i}`,
    startSeconds: 1 + i * 3,
    endSeconds: 3 + i * 3,
  }));
  let windows = 0;
  let peakOpen = 0;
  // Windows are handed on, as the worker transfers them: not kept. Stats go to the page at 10 Hz.
  const take = new TakePipeline(
    { takeId: 'bench-take', marginSeconds: 0.25, ...k },
    () => windows++,
    (s) => {
      peakOpen = Math.max(peakOpen, s.openWindows);
    },
  );
  void take.setTimeline(
    { contextTime: 0, mediaTime: 0, playbackRate: 1, outputLatency: 0, inputLatency: 0 },
    subtitles,
  );
  collectGarbage();
  const base = process.memoryUsage();
  let peakHeap = 0;
  let peakAb = 0;
  let peakRss = 0;
  const total = seconds * RATE;
  const t = timed(seconds, () => {
    for (let at = 0; at < total; at += CHUNK) {
      const from = at % loop.length;
      take.ingest(loop.subarray(from, from + CHUNK), CHUNK, at, RATE);
      if (sampleMemory && (at / CHUNK) % 64 === 0) {
        collectGarbage();
        const m = process.memoryUsage();
        peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
        peakAb = Math.max(peakAb, m.arrayBuffers - base.arrayBuffers);
        peakRss = Math.max(peakRss, m.rss - base.rss);
      }
    }
    take.finish();
  });
  return { ...t, windows, peakHeap, peakAb, peakRss, peakOpen };
}

const median = <T>(xs: T[], by: (x: T) => number): T => [...xs].sort((a, b) => by(a) - by(b))[xs.length >> 1];

export async function benchNode(options: KernelChoice & { rounds?: number } = {}): Promise<NodeBenchResult> {
  const seconds = MINUTES * 60;
  const loop = voiceLoop();
  const floors: Timed[] = [];
  const paths: PathRun[] = [];
  const rounds = options.rounds ?? ROUNDS;
  const kernel = { simd: options.simd };
  for (let round = 0; round < rounds; round++) {
    floors.push(resamplerAlone(loop, seconds, kernel));
    paths.push(wholePath(loop, seconds, kernel));
  }
  const memory = wholePath(loop, seconds, kernel, true);
  const resampler = median(floors, (t) => t.cpuMs);
  const path = median(paths, (t) => t.cpuMs);
  const mb = (b: number) => Math.round((b / 2 ** 20) * 100) / 100;
  const strip = ({ wallMs, cpuMs, realTimeFactor, cpuRealTimeFactor }: Timed): Timed => ({
    wallMs,
    cpuMs,
    realTimeFactor,
    cpuRealTimeFactor,
  });
  return {
    seconds,
    blocks: Math.ceil((seconds * RATE) / CHUNK),
    windows: path.windows,
    resampler: strip(resampler),
    path: strip(path),
    costRatio: Math.round((path.cpuMs / resampler.cpuMs) * 100) / 100,
    peakHeapDeltaMb: mb(memory.peakHeap),
    peakArrayBuffersDeltaMb: mb(memory.peakAb),
    peakRssDeltaMb: mb(memory.peakRss),
    peakOpenWindows: memory.peakOpen,
    wholeTakeMb: mb(seconds * RATE * 4),
    rounds,
  };
}

/** Measured frequency response of the resampler (same method as tests/unit/audio/resample.test.ts). */
export function resamplerResponse(rate: number): { passbandWorstDb: number; stopbandWorstDb: number } {
  const n = Math.round(rate * 0.5);
  const edge = 400;
  const tone = (f: number) => {
    const x = new Float32Array(n);
    for (let i = 0; i < n; i++) x[i] = Math.sin((2 * Math.PI * f * i) / rate);
    return resample(x, rate, 16000);
  };
  let pass = 0;
  for (let f = 50; f <= 7000; f += 50) {
    const y = tone(f);
    let ss = 0;
    let cc = 0;
    let sc = 0;
    let xs = 0;
    let xc = 0;
    for (let i = edge; i < y.length - edge; i++) {
      const w = (2 * Math.PI * f * i) / 16000;
      const s = Math.sin(w);
      const c = Math.cos(w);
      ss += s * s;
      cc += c * c;
      sc += s * c;
      xs += y[i] * s;
      xc += y[i] * c;
    }
    const det = ss * cc - sc * sc;
    const amp = Math.hypot((xs * cc - xc * sc) / det, (xc * ss - xs * sc) / det);
    pass = Math.max(pass, Math.abs(20 * Math.log10(amp)));
  }
  let stop = Number.NEGATIVE_INFINITY;
  for (let f = 8000; f < rate / 2; f += 100) {
    const y = tone(f);
    let e = 0;
    for (let i = edge; i < y.length - edge; i++) e += y[i] * y[i];
    stop = Math.max(stop, 20 * Math.log10(Math.sqrt(e / (y.length - 2 * edge)) / Math.SQRT1_2));
  }
  return { passbandWorstDb: pass, stopbandWorstDb: stop };
}

// Run alone (e.g. under `node --cpu-prof --import tsx bench/pipeline-node.ts`): the Node part only.
if (process.argv[1] && import.meta.filename === (await import('node:path')).resolve(process.argv[1])) {
  console.log(await benchNode());
}
