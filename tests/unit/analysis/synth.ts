/** Synthesised signals with known truth for the analysis tests (deterministic). */
import { seededRandom } from '../../../scripts/lib/seeded';

export const FS = 16_000;

/** Seeded uniform noise in [-1, 1). */
export function rng(seed: number): () => number {
  const uniform = seededRandom(seed);
  return () => uniform() * 2 - 1;
}

/**
 * Harmonic tone: sum of harmonics with amplitudes amps[h-1] (1 = fundamental) following the
 * instantaneous frequency f0(t) (Hz). Scaled so the peak is about `peak`.
 */
export function harmonicTone(
  seconds: number,
  f0: (t: number) => number,
  amps: number[] = [1, 0.6, 0.4, 0.3, 0.2, 0.15, 0.1],
  peak = 0.5,
  fs = FS,
): Float32Array {
  const n = Math.round(seconds * fs);
  const x = new Float32Array(n);
  let phase = 0;
  const norm = amps.reduce((a, b) => a + Math.abs(b), 0);
  for (let i = 0; i < n; i++) {
    const f = f0(i / fs);
    phase += (2 * Math.PI * f) / fs;
    let v = 0;
    for (let h = 0; h < amps.length; h++)
      if (amps[h] !== 0 && f * (h + 1) < fs / 2) v += amps[h] * Math.sin((h + 1) * phase);
    x[i] = (peak * v) / norm;
  }
  return x;
}

export function whiteNoise(seconds: number, rms: number, seed = 1, fs = FS): Float32Array {
  const r = rng(seed);
  const n = Math.round(seconds * fs);
  const x = new Float32Array(n);
  // Uniform noise in [-1, 1) has RMS 1/sqrt(3).
  for (let i = 0; i < n; i++) x[i] = r() * rms * Math.sqrt(3);
  return x;
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function add(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + (b[i] ?? 0);
  return out;
}

/**
 * Pulse train of damped 700 Hz resonances, one per glottal period, with seeded random period and
 * amplitude perturbations: periods T0 * (1 + u * jitterSpan), peak amplitudes scaled by
 * u' * shimmerSpanDb dB, u and u' uniform in [-1, 1). Returns the realised local jitter (mean
 * |T_i - T_(i-1)| / mean T) and local shimmer (mean |dB_i - dB_(i-1)|) of the sequence as truth.
 */
export function perturbedPulses(
  seconds: number,
  f0: number,
  jitterSpan: number,
  shimmerSpanDb: number,
  seed = 5,
  fs = FS,
): { x: Float32Array; jitter: number; shimmerDb: number } {
  const r = rng(seed);
  const n = Math.round(seconds * fs);
  const x = new Float32Array(n);
  const T0 = 1 / f0;
  let t = 0.01;
  const periods: number[] = [];
  const dbs: number[] = [];
  while (t < seconds) {
    const db = r() * shimmerSpanDb;
    const amp = 0.4 * 10 ** (db / 20);
    const start = Math.ceil(t * fs);
    for (let k = start; k < Math.min(n, start + Math.round(T0 * fs * 1.5)); k++) {
      const dt = k / fs - t;
      x[k] += amp * Math.exp(-dt / 0.0015) * Math.sin(2 * Math.PI * 700 * dt);
    }
    const T = T0 * (1 + r() * jitterSpan);
    if (t + T < seconds - 0.01) {
      periods.push(T);
      dbs.push(db);
    }
    t += T;
  }
  let dj = 0;
  for (let i = 1; i < periods.length; i++) dj += Math.abs(periods[i] - periods[i - 1]);
  let ds = 0;
  for (let i = 1; i < dbs.length; i++) ds += Math.abs(dbs[i] - dbs[i - 1]);
  const meanT = periods.reduce((a, b) => a + b, 0) / periods.length;
  return { x, jitter: dj / (periods.length - 1) / meanT, shimmerDb: ds / (dbs.length - 1) };
}

/** Median of the non-zero values of a track over frames [from, to). */
export function voicedMedian(track: Float32Array, from = 0, to = track.length): number {
  const v = Array.from(track.subarray(from, to)).filter((x) => x > 0);
  v.sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : 0;
}

export function voicedFraction(track: Float32Array, from = 0, to = track.length): number {
  const s = track.subarray(from, to);
  return s.filter((x) => x > 0).length / Math.max(1, s.length);
}
