/**
 * Contour preparation for comparison and plotting (pure).
 *
 * Pitch is expressed in semitones relative to the speaker's own median so that voices of
 * different registers (a man dubbing an actress) are compared by melody, not by height.
 * Loudness is expressed in dB relative to the speaker's own mean over speech, so microphone gain
 * does not count.
 */
import { robustPitchTrack } from '../analysis/pitch-figures';
import type { ScoringVoice } from './types';

export function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values)
    .filter((v) => Number.isFinite(v))
    .sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Frame range [from, to) covering the detected speech, with at least one frame. */
export function speechFrames(voice: ScoringVoice): { from: number; to: number } {
  const count = voice.frames.f0Hz.length;
  const hop = voice.frames.hopSeconds;
  const { onsetSeconds: on, offsetSeconds: off } = voice.segments;
  if (!voice.quality.speechDetected || on === null || off === null || off <= on) {
    return { from: 0, to: Math.max(1, count) };
  }
  const from = Math.min(Math.max(0, Math.floor(on / hop)), Math.max(0, count - 1));
  const to = Math.max(from + 1, Math.min(count, Math.ceil(off / hop)));
  return { from, to };
}

/**
 * Semitones re the median voiced f0 of the range; NaN where unvoiced. Read from the repaired track
 * (src/audio/analysis/pitch-figures.ts), so a fricative read as voice or an octave slip moves no
 * contour, end movement or chart scale built on it. `hopSeconds`: the frames' spacing, when not the
 * analysis hop (the live pitch of the dub page's guide).
 */
export function semitoneContour(
  f0Hz: ArrayLike<number>,
  from: number,
  to: number,
  hopSeconds?: number,
): Float64Array {
  const track = robustPitchTrack(f0Hz, from, to, hopSeconds);
  const out = new Float64Array(track.length);
  const voiced: number[] = [];
  for (const f of track) if (f > 0) voiced.push(f);
  const ref = median(voiced);
  for (let i = 0; i < track.length; i++) {
    out[i] = track[i] > 0 && ref > 0 ? 12 * Math.log2(track[i] / ref) : Number.NaN;
  }
  return out;
}

/** dB re the mean of the range (so gain does not matter). */
export function relativeLoudness(intensityDb: ArrayLike<number>, from: number, to: number): Float64Array {
  const out = new Float64Array(to - from);
  let sum = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    if (Number.isFinite(intensityDb[i])) {
      sum += intensityDb[i];
      count++;
    }
  }
  const mean = count ? sum / count : 0;
  // Floor at −40 dB re mean: below that it is silence and its exact level carries no prosody.
  for (let i = from; i < to; i++) {
    const v = Number.isFinite(intensityDb[i]) ? intensityDb[i] - mean : -40;
    out[i - from] = Math.max(-40, v);
  }
  return out;
}

/** Block means of the finite values; NaN for a block with none. Output length ceil(n / factor). */
export function decimate(x: Float64Array, factor: number): Float64Array {
  const f = Math.max(1, Math.round(factor));
  const out = new Float64Array(Math.ceil(x.length / f));
  for (let k = 0; k < out.length; k++) {
    let sum = 0;
    let count = 0;
    for (let i = k * f; i < Math.min(x.length, (k + 1) * f); i++) {
      if (Number.isFinite(x[i])) {
        sum += x[i];
        count++;
      }
    }
    out[k] = count ? sum / count : Number.NaN;
  }
  return out;
}

/** Median of three, ignoring NaN neighbours: removes single-frame octave slips without moving edges. */
export function medianSmooth3(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i])) {
      out[i] = Number.NaN;
      continue;
    }
    const a = i > 0 ? x[i - 1] : Number.NaN;
    const b = i + 1 < x.length ? x[i + 1] : Number.NaN;
    if (Number.isFinite(a) && Number.isFinite(b))
      out[i] = Math.max(Math.min(a, b), Math.min(Math.max(a, b), x[i]));
    else out[i] = x[i];
  }
  return out;
}

/** Linear interpolation across NaN gaps, holding the end values; all-NaN becomes all zero. */
export function fillGaps(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  let last = -1;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i])) continue;
    if (last < 0) for (let k = 0; k < i; k++) out[k] = x[i];
    else for (let k = last + 1; k < i; k++) out[k] = x[last] + ((x[i] - x[last]) * (k - last)) / (i - last);
    out[i] = x[i];
    last = i;
  }
  if (last < 0) return out;
  for (let k = last + 1; k < x.length; k++) out[k] = x[last];
  return out;
}

/** Picks `points` evenly spaced samples (for plotting); shorter input is returned whole. */
export function resampleIndices(length: number, points: number): number[] {
  if (length <= points) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: points }, (_, k) => Math.round((k * (length - 1)) / (points - 1)));
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
