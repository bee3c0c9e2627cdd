import { FEATURE_NAMES } from './feature-names';
import type { Perturbation } from './perturbation';
import { percentile } from './segments';
import { MFCC_COUNT, type SpectralTracks } from './spectral';
import type { SpeechSegments } from './types';

export interface LowLevelTracks {
  frames: number;
  hopSeconds: number;
  f0Hz: Float32Array;
  voicing: Float32Array;
  intensityDb: Float32Array;
  spectral: SpectralTracks;
  f1: Float32Array;
  f2: Float32Array;
  f3: Float32Array;
  speechMask: Uint8Array;
  perturbation: Perturbation;
  syllables: number;
  segments: SpeechSegments;
}

/** Writes values in FEATURE_NAMES order and fails loudly if the two ever drift apart. */
class Writer {
  private i = 0;
  constructor(private readonly out: Float64Array) {}
  put(name: string, v: number): void {
    if (FEATURE_NAMES[this.i] !== name) throw new Error(`feature order mismatch at ${this.i}: ${name}`);
    this.out[this.i++] = Number.isFinite(v) ? v : 0;
  }
  done(): void {
    if (this.i !== FEATURE_NAMES.length)
      throw new Error(`wrote ${this.i} of ${FEATURE_NAMES.length} features`);
  }
}

interface Dist {
  n: number;
  mean: number;
  std: number;
}

/** Scratch buffers sized to the number of frames. */
class Scratch {
  a: Float64Array;
  b: Float64Array;
  constructor(frames: number) {
    this.a = new Float64Array(Math.max(1, frames));
    this.b = new Float64Array(Math.max(1, frames));
  }
}

function gather(
  src: ArrayLike<number>,
  frames: number,
  stride: number,
  offset: number,
  keep: (f: number) => boolean,
  dst: Float64Array,
): number {
  let n = 0;
  for (let f = 0; f < frames; f++) if (keep(f)) dst[n++] = src[f * stride + offset];
  return n;
}

function meanStd(a: Float64Array, n: number): Dist {
  if (n === 0) return { n, mean: 0, std: 0 };
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i];
  const mean = s / n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (a[i] - mean) ** 2;
  return { n, mean, std: Math.sqrt(v / n) };
}

/** Calls `visit(start, end)` for every maximal run [start, end) of frames where `inRun` holds. */
function forEachRun(
  frames: number,
  inRun: (f: number) => boolean,
  visit: (start: number, end: number) => void,
): void {
  let f = 0;
  while (f < frames) {
    if (!inRun(f)) {
      f++;
      continue;
    }
    let e = f;
    while (e < frames && inRun(e)) e++;
    visit(f, e);
    f = e;
  }
}

/** Mean/std of the slopes (per second) of monotonic rising and falling parts of a contour. */
function slopes(
  y: ArrayLike<number>,
  frames: number,
  inRun: (f: number) => boolean,
  hop: number,
  rise: number[],
  fall: number[],
): void {
  forEachRun(frames, inRun, (f, e) => {
    // Split [f, e) into monotonic parts.
    let s = f;
    for (let g = f + 1; g <= e; g++) {
      const dirPrev = g - 1 > s ? Math.sign(y[g - 1] - y[g - 2]) : 0;
      const dir = g < e ? Math.sign(y[g] - y[g - 1]) : 0;
      if (g === e || (dirPrev !== 0 && dir !== dirPrev)) {
        const len = g - 1 - s;
        if (len >= 1) {
          const slope = (y[g - 1] - y[s]) / (len * hop);
          if (slope > 0) rise.push(slope);
          else if (slope < 0) fall.push(slope);
        }
        s = g - 1;
      }
    }
  });
}

function arrStats(v: number[]): { mean: number; std: number } {
  if (v.length === 0) return { mean: 0, std: 0 };
  const mean = v.reduce((p, c) => p + c, 0) / v.length;
  const std = Math.sqrt(v.reduce((p, c) => p + (c - mean) ** 2, 0) / v.length);
  return { mean, std };
}

function runLengths(frames: number, inRun: (f: number) => boolean, hop: number, minFrames: number): number[] {
  const out: number[] = [];
  forEachRun(frames, inRun, (f, e) => {
    if (e - f >= minFrames) out.push((e - f) * hop);
  });
  return out;
}

/** Least-squares fit y = c0 + c1 t + c2 t^2; returns [c1, c2]. */
function quadFit(t: Float64Array, y: Float64Array, n: number): [number, number] {
  if (n < 3) return [0, 0];
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < n; i++) {
    const x = t[i];
    const x2 = x * x;
    s0 += 1;
    s1 += x;
    s2 += x2;
    s3 += x2 * x;
    s4 += x2 * x2;
    b0 += y[i];
    b1 += x * y[i];
    b2 += x2 * y[i];
  }
  // Cramer's rule on the 3x3 normal equations.
  const det = (m: number[]) =>
    m[0] * (m[4] * m[8] - m[5] * m[7]) -
    m[1] * (m[3] * m[8] - m[5] * m[6]) +
    m[2] * (m[3] * m[7] - m[4] * m[6]);
  const A = [s0, s1, s2, s1, s2, s3, s2, s3, s4];
  const d = det(A);
  if (Math.abs(d) < 1e-12) return [0, 0];
  const A1 = [s0, b0, s2, s1, b1, s3, s2, b2, s4];
  const A2 = [s0, s1, b0, s1, s2, b1, s2, s3, b2];
  return [det(A1) / d, det(A2) / d];
}

/** What every group of functionals reads: the tracks, the writer, scratch space and the frame tests. */
interface Take {
  t: LowLevelTracks;
  w: Writer;
  s: Scratch;
  frames: number;
  hop: number;
  voiced: (f: number) => boolean;
  speech: (f: number) => boolean;
  unvoicedSpeech: (f: number) => boolean;
  /** A percentile of the first n values (sorted in scratch space). */
  q: (arr: Float64Array, n: number, p: number) => number;
  speechFrames: number;
  speechSeconds: number;
}

/** Utterance functionals (FEATURE_NAMES order) from the low-level tracks. */
export function computeFunctionals(t: LowLevelTracks, out: Float64Array): void {
  const { frames, hopSeconds: hop, f0Hz, speechMask } = t;
  const s = new Scratch(frames);
  const speech = (f: number) => speechMask[f] === 1;
  const speechFrames = gather(speechMask, frames, 1, 0, speech, s.b);
  const take: Take = {
    t,
    w: new Writer(out),
    s,
    frames,
    hop,
    voiced: (f) => f0Hz[f] > 0,
    speech,
    unvoicedSpeech: (f) => speechMask[f] === 1 && f0Hz[f] <= 0,
    q: (arr, n, p) => percentile(arr, n, p, s.b),
    speechFrames,
    speechSeconds: Math.max(hop, speechFrames * hop),
  };
  // The groups write in FEATURE_NAMES order (the Writer checks it).
  const st = pitchFunctionals(take);
  const loudness = loudnessFunctionals(take);
  voiceQualityFunctionals(take);
  spectralFunctionals(take);
  mfccFunctionals(take);
  temporalFunctionals(take, loudness);
  transferFunctionals(take, st, loudness.loud);
  take.w.done();
}

/** Pitch level, spread, slopes and contour shape; returns the pitch track in semitones. */
function pitchFunctionals({ t, w, s, frames, hop, voiced, q }: Take): Float64Array {
  const { f0Hz } = t;
  // Pitch (semitones re 27.5 Hz).
  const st = new Float64Array(frames);
  for (let f = 0; f < frames; f++) st[f] = f0Hz[f] > 0 ? 12 * Math.log2(f0Hz[f] / 27.5) : 0;
  const nv = gather(st, frames, 1, 0, voiced, s.a);
  const dv = meanStd(s.a, nv);
  const p20 = q(s.a, nv, 0.2);
  const p80 = q(s.a, nv, 0.8);
  w.put('f0st_mean', dv.mean);
  w.put('f0st_std', dv.std);
  w.put('f0st_p20', p20);
  w.put('f0st_p50', q(s.a, nv, 0.5));
  w.put('f0st_p80', p80);
  w.put('f0st_range2080', p80 - p20);
  w.put('f0st_p05', q(s.a, nv, 0.05));
  w.put('f0st_p95', q(s.a, nv, 0.95));
  const rise: number[] = [];
  const fall: number[] = [];
  slopes(st, frames, voiced, hop, rise, fall);
  const r = arrStats(rise);
  const fl = arrStats(fall);
  w.put('f0st_rise_mean', r.mean);
  w.put('f0st_rise_std', r.std);
  w.put('f0st_fall_mean', fl.mean);
  w.put('f0st_fall_std', fl.std);
  // Contour shape over normalised utterance time of voiced frames.
  const tt = new Float64Array(Math.max(1, nv));
  const yy = new Float64Array(Math.max(1, nv));
  let firstV = -1;
  let lastV = -1;
  for (let f = 0; f < frames; f++)
    if (voiced(f)) {
      if (firstV < 0) firstV = f;
      lastV = f;
    }
  let k = 0;
  const span = Math.max(1, lastV - firstV);
  for (let f = 0; f < frames; f++)
    if (voiced(f)) {
      tt[k] = (f - firstV) / span;
      yy[k++] = st[f] - dv.mean;
    }
  const [trend, curv] = quadFit(tt, yy, nv);
  w.put('f0st_trend', trend);
  w.put('f0st_curvature', curv);
  let dsum = 0;
  let dn = 0;
  for (let f = 1; f < frames; f++)
    if (voiced(f) && voiced(f - 1)) {
      dsum += Math.abs(st[f] - st[f - 1]);
      dn++;
    }
  w.put('f0st_absdelta_mean', dn > 0 ? dsum / dn / hop : 0);
  return st;
}

/** Loudness and intensity over speech frames; returns the relative loudness track and its mean. */
function loudnessFunctionals({ t, w, s, frames, hop, speech, q }: Take): {
  loud: Float64Array;
  mean: number;
} {
  const sp = t.spectral;
  // Loudness over speech frames, relative to the take's own 95th percentile: recording gain differs
  // between microphones (and the EmoDB copy is peak-normalised), so only the shape is comparable.
  const nl0 = gather(sp.loudness, frames, 1, 0, speech, s.a);
  const loudRef = Math.max(1e-9, q(s.a, nl0, 0.95));
  const loud = new Float64Array(frames);
  for (let f = 0; f < frames; f++) loud[f] = sp.loudness[f] / loudRef;
  const nl = gather(loud, frames, 1, 0, speech, s.a);
  const dl = meanStd(s.a, nl);
  const l20 = q(s.a, nl, 0.2);
  const l80 = q(s.a, nl, 0.8);
  w.put('loud_sp_mean', dl.mean);
  w.put('loud_sp_std', dl.std);
  w.put('loud_sp_p20', l20);
  w.put('loud_sp_p50', q(s.a, nl, 0.5));
  w.put('loud_sp_p80', l80);
  w.put('loud_sp_range2080', l80 - l20);
  w.put('loud_sp_cov', dl.mean > 0 ? dl.std / dl.mean : 0);
  const lr: number[] = [];
  const lf: number[] = [];
  slopes(loud, frames, speech, hop, lr, lf);
  w.put('loud_sp_rise_mean', arrStats(lr).mean);
  w.put('loud_sp_fall_mean', arrStats(lf).mean);

  const ni = gather(t.intensityDb, frames, 1, 0, speech, s.a);
  const di = meanStd(s.a, ni);
  w.put('int_sp_mean_re_p95', di.mean - q(s.a, ni, 0.95));
  w.put('int_sp_std', di.std);
  w.put('int_sp_range0595', q(s.a, ni, 0.95) - q(s.a, ni, 0.05));
  return { loud, mean: dl.mean };
}

function voiceQualityFunctionals({ t, w, s, frames, voiced }: Take): void {
  // Voice quality.
  const hnr = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const rr = Math.min(0.9999, Math.max(1e-4, t.voicing[f]));
    hnr[f] = 10 * Math.log10(rr / (1 - rr));
  }
  const nh = gather(hnr, frames, 1, 0, voiced, s.a);
  const dh = meanStd(s.a, nh);
  w.put('hnr_v_mean', dh.mean);
  w.put('hnr_v_std', dh.std);
  const nvo = gather(t.voicing, frames, 1, 0, voiced, s.a);
  w.put('voicing_v_mean', meanStd(s.a, nvo).mean);
  w.put('jitter_local', t.perturbation.jitterLocal ?? 0);
  w.put('shimmer_local_db', t.perturbation.shimmerLocalDb ?? 0);

  for (const [name, track] of [
    ['f1', t.f1],
    ['f2', t.f2],
    ['f3', t.f3],
  ] as const) {
    const n = gather(track, frames, 1, 0, (f) => voiced(f) && track[f] > 0, s.a);
    const d = meanStd(s.a, n);
    w.put(`${name}_v_mean`, d.mean);
    w.put(`${name}_v_std`, d.std);
  }
}

/** Spectral balance over voiced and unvoiced speech frames. */
function spectralFunctionals({ t, w, s, frames, voiced, unvoicedSpeech }: Take): void {
  const sp = t.spectral;
  for (const [name, track] of [
    ['alpha', sp.alphaRatio],
    ['hammarberg', sp.hammarberg],
    ['slope0500', sp.slopeLow],
    ['slope5001500', sp.slopeHigh],
    ['flux', sp.flux],
    ['centroid', sp.centroid],
  ] as const) {
    const n = gather(track, frames, 1, 0, voiced, s.a);
    const d = meanStd(s.a, n);
    w.put(`${name}_v_mean`, d.mean);
    w.put(`${name}_v_std`, d.std);
    const nu = gather(track, frames, 1, 0, unvoicedSpeech, s.a);
    w.put(`${name}_uv_mean`, meanStd(s.a, nu).mean);
  }
}

function mfccFunctionals({ t, w, s, frames, voiced, speech, unvoicedSpeech }: Take): void {
  const sp = t.spectral;
  for (let c = 0; c < MFCC_COUNT; c++) {
    const n = gather(sp.mfcc, frames, MFCC_COUNT, c, voiced, s.a);
    const d = meanStd(s.a, n);
    w.put(`mfcc${c + 1}_v_mean`, d.mean);
    w.put(`mfcc${c + 1}_v_std`, d.std);
  }
  for (let c = 0; c < 4; c++) {
    const n = gather(sp.mfcc, frames, MFCC_COUNT, c, unvoicedSpeech, s.a);
    w.put(`mfcc${c + 1}_uv_mean`, meanStd(s.a, n).mean);
  }
  for (let c = 0; c < MFCC_COUNT; c++) {
    let n = 0;
    for (let f = 1; f < frames; f++)
      if (speech(f) && speech(f - 1))
        s.a[n++] = sp.mfcc[f * MFCC_COUNT + c] - sp.mfcc[(f - 1) * MFCC_COUNT + c];
    w.put(`dmfcc${c + 1}_sp_std`, meanStd(s.a, n).std);
  }
}

/** Rates and segment lengths. */
function temporalFunctionals(
  { t, w, frames, hop, voiced, speech, speechFrames, speechSeconds }: Take,
  { loud, mean }: { loud: Float64Array; mean: number },
): void {
  // Temporal features; rates use speech time so that trailing silence cannot leak into them.
  let voicedInSpeech = 0;
  for (let f = 0; f < frames; f++) if (speech(f) && voiced(f)) voicedInSpeech++;
  w.put('voiced_fraction', speechFrames > 0 ? voicedInSpeech / speechFrames : 0);
  w.put('syllable_rate', t.syllables / speechSeconds);
  let peaks = 0;
  for (let f = 1; f < frames - 1; f++)
    if (speech(f) && loud[f] > loud[f - 1] && loud[f] >= loud[f + 1] && loud[f] > mean) peaks++;
  w.put('loudness_peak_rate', peaks / speechSeconds);
  const vLens = runLengths(frames, voiced, hop, 3);
  w.put('voiced_segments_per_s', vLens.length / speechSeconds);
  const vs = arrStats(vLens);
  w.put('voiced_seg_len_mean', vs.mean);
  w.put('voiced_seg_len_std', vs.std);
  const on = t.segments.onsetSeconds ?? 0;
  const off = t.segments.offsetSeconds ?? 0;
  const uvLens = runLengths(frames, (f) => !voiced(f) && f * hop >= on && (f + 1) * hop <= off, hop, 2);
  const us = arrStats(uvLens);
  w.put('unvoiced_seg_len_mean', us.mean);
  w.put('unvoiced_seg_len_std', us.std);
  const pauses = t.segments.pauses;
  w.put('pauses_per_s', pauses.length / speechSeconds);
  w.put('pause_len_mean', arrStats(pauses.map((p) => p.end - p.start)).mean);
}

function transferFunctionals(
  { t, w, s, frames, voiced, q }: Take,
  st: Float64Array,
  loud: Float64Array,
): void {
  const sp = t.spectral;
  // Transfer-robust measures (see feature-names.ts).
  const nv2 = gather(st, frames, 1, 0, voiced, s.a);
  const p50 = q(s.a, nv2, 0.5);
  w.put('f0st_p95_re_p50', nv2 > 0 ? q(s.a, nv2, 0.95) - p50 : 0);
  w.put('f0st_p50_re_p05', nv2 > 0 ? p50 - q(s.a, nv2, 0.05) : 0);
  for (const [name, track] of [
    ['f1_re_f3_v_mean', t.f1],
    ['f2_re_f3_v_mean', t.f2],
  ] as const) {
    let sum = 0;
    let n = 0;
    for (let f = 0; f < frames; f++)
      if (voiced(f) && track[f] > 0 && t.f3[f] > 0) {
        sum += 12 * Math.log2(track[f] / t.f3[f]);
        n++;
      }
    w.put(name, n > 0 ? sum / n : 0);
  }
  // Loud and soft voiced frames: above the 70th and below the 30th percentile of loudness.
  const nlv = gather(loud, frames, 1, 0, voiced, s.a);
  const loudHi = q(s.a, nlv, 0.7);
  const loudLo = q(s.a, nlv, 0.3);
  for (const [name, track] of [
    ['alpha_loud_re_soft', sp.alphaRatio],
    ['hammarberg_loud_re_soft', sp.hammarberg],
    ['slope0500_loud_re_soft', sp.slopeLow],
  ] as const) {
    let hi = 0;
    let nhi = 0;
    let lo = 0;
    let nlo = 0;
    for (let f = 0; f < frames; f++) {
      if (!voiced(f)) continue;
      if (loud[f] >= loudHi) {
        hi += track[f];
        nhi++;
      } else if (loud[f] <= loudLo) {
        lo += track[f];
        nlo++;
      }
    }
    w.put(name, nhi > 0 && nlo > 0 ? hi / nhi - lo / nlo : 0);
  }
}
