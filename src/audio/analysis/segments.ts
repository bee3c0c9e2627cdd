import { INTENSITY_FLOOR_DB } from './intensity';
import type { SpeechSegments } from './types';

/** Silent gaps at least this long inside speech count as pauses (s). */
export const MIN_PAUSE_SECONDS = 0.2;
/** Voiced stretches shorter than this are not counted (s). */
export const MIN_VOICED_SECONDS = 0.03;

export interface SegmentationResult {
  segments: SpeechSegments;
  /** 1 for frames inside speech (between onset and offset, outside pauses). */
  speechMask: Uint8Array;
  noiseFloorDb: number;
  speechThresholdDb: number;
}

/** Percentile (0..1) of a[0..n) using a scratch buffer of at least n values. */
export function percentile(a: ArrayLike<number>, n: number, q: number, scratch: Float64Array): number {
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) scratch[i] = a[i];
  const s = scratch.subarray(0, n).sort();
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/**
 * Below this (dBFS) a frame is silent whatever the take's level: the quantisation noise of 16-bit
 * audio, so a take recorded 30 dB quieter is segmented the same (the thresholds above it are
 * relative to the take's own noise floor and loudest frames).
 */
export const SILENCE_DB = -100;

/**
 * Speech/pause segmentation from intensity and voicing. A frame is "active" when it is louder than
 * both noise floor + 9 dB and the 97th percentile - 35 dB; speech must also contain voicing, so
 * noise bursts alone are not speech. Onset/offset are the first/last active frame of the first/last
 * active stretch that contains a voiced frame; inside, silent gaps of at least MIN_PAUSE_SECONDS
 * are pauses, shorter gaps are bridged (stop closures).
 */
export function segmentSpeech(
  intensityDb: Float32Array,
  f0: Float32Array,
  frames: number,
  hopSeconds: number,
  scratch: Float64Array,
): SegmentationResult {
  const speechMask = new Uint8Array(frames);
  const noiseFloorDb = frames > 0 ? percentile(intensityDb, frames, 0.1, scratch) : INTENSITY_FLOOR_DB;
  const top = frames > 0 ? percentile(intensityDb, frames, 0.97, scratch) : INTENSITY_FLOOR_DB;
  const thr = Math.max(noiseFloorDb + 9, top - 35, SILENCE_DB);
  const active = new Uint8Array(frames);
  for (let f = 0; f < frames; f++) active[f] = intensityDb[f] > thr ? 1 : 0;
  bridgeShortGaps(active, frames, Math.round(MIN_PAUSE_SECONDS / hopSeconds));
  const { first, end } = keepVoicedStretches(active, f0, frames, speechMask);
  const { pauses, speechFrames } = pausesWithin(speechMask, first, end, hopSeconds);
  const voicedSegments = countVoicedSegments(
    f0,
    frames,
    Math.max(1, Math.round(MIN_VOICED_SECONDS / hopSeconds)),
  );
  return {
    segments: {
      onsetSeconds: first >= 0 ? round3(first * hopSeconds) : null,
      offsetSeconds: first >= 0 ? round3(end * hopSeconds) : null,
      speechSeconds: round3(speechFrames * hopSeconds),
      pauses,
      voicedSegments,
    },
    speechMask,
    noiseFloorDb,
    speechThresholdDb: thr,
  };
}

/** Bridges gaps shorter than `minGap` frames between active frames (stop closures are not pauses). */
function bridgeShortGaps(active: Uint8Array, frames: number, minGap: number): void {
  let last = -1;
  for (let f = 0; f < frames; f++) {
    if (!active[f]) continue;
    if (last >= 0 && f - last - 1 > 0 && f - last - 1 < minGap)
      for (let g = last + 1; g < f; g++) active[g] = 1;
    last = f;
  }
}

/**
 * Marks in `speechMask` the active stretches that contain voicing (at least 3 voiced frames); returns
 * the first such stretch's start and the last one's end (-1 when none).
 */
function keepVoicedStretches(
  active: Uint8Array,
  f0: Float32Array,
  frames: number,
  speechMask: Uint8Array,
): { first: number; end: number } {
  let first = -1;
  let end = -1;
  let f = 0;
  while (f < frames) {
    if (!active[f]) {
      f++;
      continue;
    }
    let e = f;
    let voiced = 0;
    while (e < frames && active[e]) {
      if (f0[e] > 0) voiced++;
      e++;
    }
    if (voiced >= 3) {
      for (let g = f; g < e; g++) speechMask[g] = 1;
      if (first < 0) first = f;
      end = e;
    }
    f = e;
  }
  return { first, end };
}

/** The pauses between `first` and `end` (seconds) and the speech frames among them. */
function pausesWithin(
  speechMask: Uint8Array,
  first: number,
  end: number,
  hopSeconds: number,
): { pauses: Array<{ start: number; end: number }>; speechFrames: number } {
  const pauses: Array<{ start: number; end: number }> = [];
  let speechFrames = 0;
  if (first >= 0) {
    let g = first;
    while (g < end) {
      if (speechMask[g]) {
        speechFrames++;
        g++;
        continue;
      }
      let h = g;
      while (h < end && !speechMask[h]) h++;
      pauses.push({ start: round3(g * hopSeconds), end: round3(h * hopSeconds) });
      g = h;
    }
  }
  return { pauses, speechFrames };
}

/** Voiced stretches of at least `minVoiced` frames (bridging single unvoiced frames). */
function countVoicedSegments(f0: Float32Array, frames: number, minVoiced: number): number {
  let voicedSegments = 0;
  let f = 0;
  while (f < frames) {
    if (f0[f] <= 0) {
      f++;
      continue;
    }
    let e = f;
    while (e < frames && (f0[e] > 0 || (e + 1 < frames && f0[e + 1] > 0 && e > f))) e++;
    if (e - f >= minVoiced) voicedSegments++;
    f = e;
  }
  return voicedSegments;
}

/**
 * Syllable nuclei after de Jong & Wempe (2009): peaks of intensity that are (a) above the
 * speech threshold and the median speech intensity, (b) followed by a dip of at least 2 dB before
 * the next peak, and (c) voiced. Returns the number of nuclei.
 */
export function countSyllableNuclei(
  intensityDb: Float32Array,
  f0: Float32Array,
  speechMask: Uint8Array,
  frames: number,
  threshold: number,
  scratch: Float64Array,
): number {
  // Median intensity over speech frames.
  let n = 0;
  for (let f = 0; f < frames; f++) if (speechMask[f]) scratch[n++] = intensityDb[f];
  if (n === 0) return 0;
  const median = percentile(scratch, n, 0.5, new Float64Array(n));
  const floor = Math.max(threshold, median - 2);
  // Smooth with a 3-frame mean to avoid counting ripples.
  const s = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const a = intensityDb[Math.max(0, f - 1)];
    const b = intensityDb[f];
    const c = intensityDb[Math.min(frames - 1, f + 1)];
    s[f] = (a + b + c) / 3;
  }
  const peaks: number[] = [];
  for (let f = 1; f < frames - 1; f++) if (s[f] > s[f - 1] && s[f] >= s[f + 1] && s[f] > floor) peaks.push(f);
  let count = 0;
  for (let i = 0; i < peaks.length; i++) {
    const p = peaks[i];
    let dipOk = true;
    if (i + 1 < peaks.length) {
      let min = s[p];
      for (let g = p + 1; g < peaks[i + 1]; g++) if (s[g] < min) min = s[g];
      dipOk = s[p] - min >= 2;
    }
    const voiced = f0[p] > 0 || (p > 0 && f0[p - 1] > 0) || (p + 1 < frames && f0[p + 1] > 0);
    if (dipOk && voiced) count++;
  }
  return count;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
