/**
 * Time and pitch shifts for the transfer bench (pure: no Node, no DOM).
 *
 * - `changeTempo`: WSOLA (waveform-similarity overlap-add, Verhelst & Roelands 1993): 32 ms Hann
 *   frames at 50 % overlap, each taken within ±8 ms of its nominal input position where it best
 *   continues the previous frame, so pitch periods line up and the pitch stays where it was.
 * - `resampleBy`: windowed-sinc interpolation at an arbitrary ratio (low-passed when reading faster).
 * - `shiftPitch`: stretch by r, read back r times faster (pitch and formants both × r), then warp the
 *   spectral envelope by 1/r (warpFormants) so only the pitch moved: a voice an interval higher or
 *   lower with the same vocal tract.
 */
import { sinc } from '../../../src/audio/dsp/kaiser';
import { warpFormants } from './formant-warp';

function hann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n); // periodic: sums to 1 at 50 %
  return w;
}

/** Same pitch, `tempo` times faster (1.15 = 15 % faster, the result 1/1.15 as long). */
export function changeTempo(x: Float32Array, sampleRate: number, tempo: number): Float32Array {
  if (!(tempo > 0)) throw new RangeError(`tempo must be positive, got ${tempo}`);
  const outLen = Math.round(x.length / tempo);
  const n = 2 * Math.round(0.016 * sampleRate);
  const hop = n / 2;
  const tol = Math.round(0.008 * sampleRate);
  const w = hann(n);
  const y = new Float64Array(outLen + n);
  const wsum = new Float64Array(outLen + n);
  const last = Math.max(0, x.length - n);
  let prev = 0;
  for (let out = 0; out < outLen; out += hop) {
    const nominal = Math.min(last, Math.round(out * tempo));
    let best = nominal;
    if (out > 0) {
      // The input that would naturally follow the previous frame; find the candidate most like it.
      const natural = Math.min(last, prev + hop);
      let bestScore = Number.NEGATIVE_INFINITY;
      const lo = Math.max(0, nominal - tol);
      const hi = Math.min(last, nominal + tol);
      // Coarse search every 2 samples on every 4th sample, then refine around the winner.
      const score = (c: number, step: number) => {
        let s = 0;
        for (let i = 0; i < n; i += step) s += x[natural + i] * x[c + i];
        return s;
      };
      for (let c = lo; c <= hi; c += 2) {
        const s = score(c, 4);
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
      const coarse = best;
      bestScore = Number.NEGATIVE_INFINITY;
      for (let c = Math.max(lo, coarse - 2); c <= Math.min(hi, coarse + 2); c++) {
        const s = score(c, 1);
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const v = best + i < x.length ? x[best + i] : 0;
      y[out + i] += w[i] * v;
      wsum[out + i] += w[i];
    }
    prev = best;
  }
  const res = new Float32Array(outLen);
  for (let i = 0; i < outLen; i++) res[i] = wsum[i] > 1e-3 ? y[i] / wsum[i] : y[i];
  return res;
}

/** Kernel samples per unit of the interpolation table (linear interpolation between them). */
const TABLE_STEPS = 512;

/** Reads x at step `ratio` (out[m] = x(m * ratio)): every frequency × ratio, length / ratio. */
export function resampleBy(x: Float32Array, ratio: number, outLength?: number): Float32Array {
  const len = outLength ?? Math.floor(x.length / ratio);
  const out = new Float32Array(len);
  const cutoff = Math.min(1, 1 / ratio);
  const half = Math.ceil(16 / cutoff);
  // Tabulated windowed sinc (raised-cosine taper over the kernel's span), low-passed at `cutoff`.
  const table = new Float64Array(half * TABLE_STEPS + 2);
  for (let i = 0; i < table.length; i++) {
    const d = i / TABLE_STEPS;
    table[i] = d > half ? 0 : cutoff * sinc(cutoff * d) * (0.5 + 0.5 * Math.cos((Math.PI * d) / (half + 1)));
  }
  const kernel = (d: number) => {
    const p = Math.abs(d) * TABLE_STEPS;
    const i = Math.floor(p);
    return table[i] + (p - i) * (table[i + 1] - table[i]);
  };
  for (let m = 0; m < len; m++) {
    const t = m * ratio;
    const c = Math.floor(t);
    let acc = 0;
    const lo = Math.max(0, c - half + 1);
    const hi = Math.min(x.length - 1, c + half);
    for (let k = lo; k <= hi; k++) acc += x[k] * kernel(t - k);
    out[m] = acc;
  }
  return out;
}

/** Pitch moved by `semitones`, duration and formants kept. */
export function shiftPitch(x: Float32Array, sampleRate: number, semitones: number): Float32Array {
  const r = 2 ** (semitones / 12);
  const stretched = changeTempo(x, sampleRate, 1 / r);
  const read = resampleBy(stretched, r, x.length);
  return warpFormants(read, sampleRate, 1 / r);
}
