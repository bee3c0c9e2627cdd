/**
 * The encoder worker's own code (TakePipeline: resample → slice → wav) run in Node on a synthetic
 * 10-minute 48 kHz take with a subtitle window every 3 s: speed (× real time) and peak memory.
 */
import { resample } from '../src/audio/dsp/resample';
import { TakePipeline } from '../src/workers/take-pipeline';

const RATE = 48_000;
const CHUNK = 2048; // what the worklet sends
const MINUTES = 10;

export interface NodeBenchResult {
  seconds: number;
  windows: number;
  wallMs: number;
  /** CPU time of this process: less sensitive than wall time to other work on a shared machine. */
  cpuMs: number;
  realTimeFactor: number;
  cpuRealTimeFactor: number;
  peakHeapDeltaMb: number;
  peakArrayBuffersDeltaMb: number;
  peakRssDeltaMb: number;
  /** What holding the whole take as 48 kHz float32 would cost, for comparison. */
  wholeTakeMb: number;
}

export async function benchNode(): Promise<NodeBenchResult> {
  const seconds = MINUTES * 60;
  const subtitles = Array.from({ length: Math.floor((seconds - 3) / 3) }, (_, i) => ({
    id: `line-${i}`,
    startSeconds: 1 + i * 3,
    endSeconds: 3 + i * 3,
  }));
  let windows = 0;
  let bytes = 0;
  const take = new TakePipeline({ takeId: 'bench-take', marginSeconds: 0.25 }, (w) => {
    windows++;
    bytes += w.wav.byteLength; // handed on, as the worker transfers it: not kept
  });
  void take.setTimeline(
    { contextTime: 0, mediaTime: 0, playbackRate: 1, outputLatency: 0, inputLatency: 0 },
    subtitles,
  );
  // A voice-like test signal: 10 s made up front and cycled, so the loop measures only the pipeline.
  const loop = new Float32Array(RATE * 10);
  let phase = 0;
  let seed = 1;
  for (let i = 0; i < loop.length; i++) {
    const f0 = 120 + 40 * Math.sin((2 * Math.PI * i) / (RATE * 2));
    phase += (2 * Math.PI * f0) / RATE;
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    loop[i] = 0.3 * Math.sin(phase) + 0.1 * Math.sin(3 * phase) + 0.01 * (seed / 0x7fffffff - 0.5);
  }
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakHeap = 0;
  let peakAb = 0;
  let peakRss = 0;
  const total = seconds * RATE;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let at = 0; at < total; at += CHUNK) {
    const from = at % loop.length;
    take.ingest(loop.subarray(from, from + CHUNK), CHUNK, at, RATE);
    if ((at / CHUNK) % 256 === 0) {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
      peakAb = Math.max(peakAb, m.arrayBuffers - base.arrayBuffers);
      peakRss = Math.max(peakRss, m.rss - base.rss);
    }
  }
  take.finish();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  void bytes;
  const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
  return {
    seconds,
    windows,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round(cpuMs),
    realTimeFactor: Math.round((seconds * 1000) / wallMs),
    cpuRealTimeFactor: Math.round((seconds * 1000) / cpuMs),
    peakHeapDeltaMb: mb(peakHeap),
    peakArrayBuffersDeltaMb: mb(peakAb),
    peakRssDeltaMb: mb(peakRss),
    wholeTakeMb: mb(seconds * RATE * 4),
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
