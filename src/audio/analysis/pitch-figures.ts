/**
 * The pitch track every figure is read from (pure): range, median, end movement, the pitch guide's
 * contour and its scale, and the advice quoting them. The tracker's raw track (pitch.ts) keeps
 * every frame it judged voiced; a few of those are not the voice's pitch: a fricative read as voice
 * (the "sch" of "Eisschrank" at ~490 Hz in a 95 Hz voice) or an octave slip. A 0.1 s stretch of them
 * is over 5 % of a short line's voiced frames, enough to move a 5th–95th percentile range by 20
 * semitones and an end movement by 28. Here such frames are repaired or dropped before any figure is
 * read, so a figure says what a listener (and Praat) hears.
 */
import { HOP_SECONDS } from '../constants';

/** Window (s, each side) of the running median a frame is judged against. */
const RUNNING_SECONDS = 0.5;
/**
 * Frames further than this (semitones) above the running median are not intonation: speech rises
 * this far over its local level only through a tracking error (a doubled pitch, a fricative).
 */
const JUMP_ST = 9;
/** An octave slip corrected by 12 semitones must land this close to the running median. */
const OCTAVE_FIT_ST = 5;
/**
 * First pass: frames further than this from the line's median are left out of the running median,
 * so a run of errors cannot pull the reference it is judged against.
 */
const OUTLIER_ST = 12;
/** Voiced runs shorter than this (s) are dropped: a pitch needs a few periods to be heard. */
export const MIN_VOICED_RUN_SECONDS = 0.03;

function medianOf(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The track over frames [from, to) with upward octave slips moved back down an octave, and other
 * jumps far above the running median or voiced runs too short to be heard set to 0 (unvoiced).
 * Hz in, Hz out.
 */
export function robustPitchTrack(
  f0Hz: ArrayLike<number>,
  from = 0,
  to = f0Hz.length,
  hopSeconds = HOP_SECONDS,
): Float64Array {
  const n = Math.max(0, to - from);
  const st = new Float64Array(n).fill(Number.NaN);
  const voiced: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = f0Hz[from + i];
    if (f > 0) {
      st[i] = 12 * Math.log2(f);
      voiced.push(st[i]);
    }
  }
  const out = new Float64Array(n);
  if (voiced.length === 0) return out;
  const lineMedian = medianOf(voiced);
  const window = Math.max(1, Math.round(RUNNING_SECONDS / hopSeconds));
  const fixed = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(st[i])) continue;
    const near: number[] = [];
    for (let k = Math.max(0, i - window); k < Math.min(n, i + window + 1); k++) {
      if (Number.isFinite(st[k]) && Math.abs(st[k] - lineMedian) <= OUTLIER_ST) near.push(st[k]);
    }
    const ref = near.length > 0 ? medianOf(near) : lineMedian;
    const d = st[i] - ref;
    // Below the running median is kept: a stretch an octave down is creak, heard as low voice
    // (and read so by Praat), not a tracking error.
    if (d <= JUMP_ST) fixed[i] = f0Hz[from + i];
    else if (Math.abs(d - 12) <= OCTAVE_FIT_ST) fixed[i] = f0Hz[from + i] / 2;
  }
  const minRun = Math.max(1, Math.round(MIN_VOICED_RUN_SECONDS / hopSeconds));
  for (let i = 0; i < n; ) {
    if (!Number.isFinite(fixed[i])) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && Number.isFinite(fixed[end])) end++;
    if (end - i >= minRun) for (let k = i; k < end; k++) out[k] = fixed[k];
    i = end;
  }
  return out;
}

function percentileSorted(sorted: Float64Array, q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export interface PitchFigures {
  /** Median of the voiced frames (Hz); null with fewer than 5. */
  medianHz: number | null;
  /** 5th to 95th percentile of the voiced frames, in semitones; null with fewer than 5. */
  rangeSemitones: number | null;
}

/** Median and range of a robust track (robustPitchTrack's output: Hz, 0 unvoiced). */
export function pitchFigures(robustHz: ArrayLike<number>): PitchFigures {
  const voiced = Float64Array.from(Array.from(robustHz).filter((f) => f > 0)).sort();
  if (voiced.length < 5) return { medianHz: null, rangeSemitones: null };
  return {
    medianHz: percentileSorted(voiced, 0.5),
    rangeSemitones: 12 * Math.log2(percentileSorted(voiced, 0.95) / percentileSorted(voiced, 0.05)),
  };
}
