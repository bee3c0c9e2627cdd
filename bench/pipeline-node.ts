/**
 * The encoder worker's own code (TakePipeline: resample → slice → wav) run in Node on a synthetic
 * 10-minute 48 kHz take with a subtitle window every 3 s: speed (× real time) and peak memory.
 */
import { TakePipeline } from '../src/workers/take-pipeline';

const RATE = 48_000;
const CHUNK = 2048; // what the worklet sends
const MINUTES = 10;

export interface NodeBenchResult {
  seconds: number;
  windows: number;
  wallMs: number;
  realTimeFactor: number;
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
  // A voice-like test signal generated chunk by chunk, so the bench itself holds no 10-minute buffer.
  const chunk = new Float32Array(CHUNK);
  let phase = 0;
  let seed = 1;
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakHeap = 0;
  let peakAb = 0;
  let peakRss = 0;
  const total = seconds * RATE;
  let genMs = 0;
  const t0 = performance.now();
  for (let at = 0; at < total; at += CHUNK) {
    const g0 = performance.now();
    const f0 = 120 + 40 * Math.sin((2 * Math.PI * at) / (RATE * 2));
    for (let i = 0; i < CHUNK; i++) {
      phase += (2 * Math.PI * f0) / RATE;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      chunk[i] = 0.3 * Math.sin(phase) + 0.1 * Math.sin(3 * phase) + 0.01 * (seed / 0x7fffffff - 0.5);
    }
    genMs += performance.now() - g0;
    take.ingest(chunk, CHUNK, at, RATE);
    if ((at / CHUNK) % 256 === 0) {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
      peakAb = Math.max(peakAb, m.arrayBuffers - base.arrayBuffers);
      peakRss = Math.max(peakRss, m.rss - base.rss);
    }
  }
  take.finish();
  const wallMs = performance.now() - t0 - genMs;
  void bytes;
  const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
  return {
    seconds,
    windows,
    wallMs: Math.round(wallMs),
    realTimeFactor: Math.round((seconds * 1000) / wallMs),
    peakHeapDeltaMb: mb(peakHeap),
    peakArrayBuffersDeltaMb: mb(peakAb),
    peakRssDeltaMb: mb(peakRss),
    wholeTakeMb: mb(seconds * RATE * 4),
  };
}
