/**
 * Learner vs actor: the measured differences that sub-scores and tips are built from (pure).
 *
 * Both voices are cut to their detected speech, pitch goes to semitones re each speaker's median and
 * loudness to dB re each speaker's mean, then one DTW over (pitch, loudness) aligns the two. Intonation
 * and energy differences are read along that path; timing is read from the segmentation.
 */
import {
  decimate,
  fillGaps,
  median,
  medianSmooth3,
  relativeLoudness,
  semitoneContour,
  speechFrames,
} from './contour';
import { DtwWorkspace } from './dtw';
import type { PauseSpan, ScoringVoice } from './types';

/** Comparison frame step (s): 20 ms is fine enough for prosody and halves DTW work. */
const STEP_SECONDS = 0.02;
/** Longest sequence fed to DTW; longer takes are decimated further (60 s → 100 ms steps). */
const MAX_DTW_POINTS = 600;
/** Scale of each dimension in the DTW cost: 4 semitones ~ 8 dB ~ one unit. */
const PITCH_SCALE_ST = 4;
const LOUDNESS_SCALE_DB = 8;
/** Pauses shorter than this are articulation, not phrasing. */
const MIN_PAUSE_SECONDS = 0.15;
/** A learner pause counts as "the same pause" within this fraction of the line. */
const PAUSE_TOLERANCE = 0.1;

export interface VoiceContours {
  /** Frame index (in analysis frames) where the prepared contour starts. */
  fromFrame: number;
  /** Seconds per prepared point. */
  stepSeconds: number;
  /** Semitones re median, NaN unvoiced (smoothed). */
  pitchSt: Float64Array;
  /** dB re mean over speech. */
  loudnessDb: Float64Array;
}

export interface IntonationDiff {
  /** Mean |learner − actor| in semitones over aligned points voiced in both. */
  distanceSt: number;
  /** Pearson correlation of the aligned voiced contours (null with < 8 pairs). */
  correlation: number | null;
  voicedPairs: number;
  learnerRangeSt: number | null;
  actorRangeSt: number | null;
  /** Pitch movement over the end of the line (st; > 0 rises). */
  learnerEndMoveSt: number | null;
  actorEndMoveSt: number | null;
}

export interface EnergyDiff {
  /** Mean |learner − actor| in dB re each speaker's mean, along the path. */
  distanceDb: number;
  correlation: number | null;
  learnerRangeDb: number;
  actorRangeDb: number;
}

export interface TimingDiff {
  /** Learner onset − actor onset (s), each in its own clip (both cut with the same window margin). */
  onsetDelaySeconds: number;
  /** Learner speech span / actor speech span. */
  durationRatio: number;
  learnerRate: number | null;
  actorRate: number | null;
  /** Relative positions (0–1 along the line) of pauses. */
  learnerPauses: number[];
  actorPauses: number[];
  /** F1-like agreement of pause placement, 1 when neither pauses. */
  pauseAgreement: number;
  missingPauses: number;
  extraPauses: number;
}

export interface Comparison {
  learner: VoiceContours;
  actor: VoiceContours;
  /** DTW path over the prepared contours (indices into learner / actor points). */
  pathLearner: Int32Array;
  pathActor: Int32Array;
  intonation: IntonationDiff;
  energy: EnergyDiff;
  timing: TimingDiff;
}

/** Speech region of a voice as comparison contours (decimated to `stepSeconds`). */
export function prepareContours(voice: ScoringVoice, stepSeconds = STEP_SECONDS): VoiceContours {
  const { from, to } = speechFrames(voice);
  const hop = voice.frames.hopSeconds;
  let factor = Math.max(1, Math.round(stepSeconds / hop));
  if ((to - from) / factor > MAX_DTW_POINTS) factor = Math.ceil((to - from) / MAX_DTW_POINTS);
  const pitchSt = medianSmooth3(decimate(semitoneContour(voice.frames.f0Hz, from, to), factor));
  const loudnessDb = decimate(relativeLoudness(voice.frames.intensityDb, from, to), factor);
  return { fromFrame: from, stepSeconds: hop * factor, pitchSt, loudnessDb };
}

function features(c: VoiceContours): Float64Array {
  const pitch = fillGaps(c.pitchSt);
  const out = new Float64Array(pitch.length * 2);
  for (let i = 0; i < pitch.length; i++) {
    out[2 * i] = pitch[i] / PITCH_SCALE_ST;
    out[2 * i + 1] = c.loudnessDb[i] / LOUDNESS_SCALE_DB;
  }
  return out;
}

export function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 8) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  if (sxx < 1e-9 || syy < 1e-9) return null;
  return sxy / Math.sqrt(sxx * syy);
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** 10th–90th percentile span of the voiced contour, in semitones. */
export function pitchRangeSt(pitchSt: Float64Array): number | null {
  const voiced = Array.from(pitchSt).filter(Number.isFinite);
  if (voiced.length < 5) return null;
  return percentile(voiced, 0.9) - percentile(voiced, 0.1);
}

/** 10th–90th percentile span of the loudness contour, in dB (ignores the silence floor). */
export function loudnessRangeDb(loudnessDb: Float64Array): number {
  const values = Array.from(loudnessDb).filter((v) => v > -39);
  if (values.length < 2) return 0;
  return percentile(values, 0.9) - percentile(values, 0.1);
}

/**
 * Pitch movement over the end of the line: median of the last half minus median of the first half
 * of the final voiced stretch (the last third of the voiced points, at most 0.4 s of them). Medians,
 * not a regression, because creak and octave slips cluster at the ends of utterances.
 * Positive = rising (question-like), negative = falling.
 */
export function endMovementSt(pitchSt: Float64Array, stepSeconds: number): number | null {
  const voiced: number[] = [];
  for (let i = 0; i < pitchSt.length; i++) if (Number.isFinite(pitchSt[i])) voiced.push(pitchSt[i]);
  if (voiced.length < 6) return null;
  const take = Math.max(4, Math.min(Math.round(0.4 / stepSeconds), Math.floor(voiced.length / 3)));
  const tail = voiced.slice(-take);
  const half = tail.length >> 1;
  return median(tail.slice(tail.length - half)) - median(tail.slice(0, half));
}

/** Pause mid-points as fractions of the speech span (only real phrasing pauses). */
export function pausePositions(voice: ScoringVoice): number[] {
  const { onsetSeconds: on, offsetSeconds: off } = voice.segments;
  if (on === null || off === null || off <= on) return [];
  const span = off - on;
  return voice.segments.pauses
    .filter((p: PauseSpan) => p.end - p.start >= MIN_PAUSE_SECONDS)
    .filter((p) => p.start > on && p.end < off)
    .map((p) => ((p.start + p.end) / 2 - on) / span);
}

export function matchPauses(
  learner: number[],
  actor: number[],
): { agreement: number; missing: number; extra: number } {
  if (learner.length === 0 && actor.length === 0) return { agreement: 1, missing: 0, extra: 0 };
  const used = new Array<boolean>(learner.length).fill(false);
  let matched = 0;
  for (const a of actor) {
    let best = -1;
    for (let i = 0; i < learner.length; i++) {
      if (
        !used[i] &&
        Math.abs(learner[i] - a) <= PAUSE_TOLERANCE &&
        (best < 0 || Math.abs(learner[i] - a) < Math.abs(learner[best] - a))
      ) {
        best = i;
      }
    }
    if (best >= 0) {
      used[best] = true;
      matched++;
    }
  }
  return {
    agreement: (2 * matched) / (learner.length + actor.length),
    missing: actor.length - matched,
    extra: learner.length - matched,
  };
}

/** Onset to offset of the detected speech (s), 0 when none. */
export function speechSpan(voice: ScoringVoice): number {
  const { onsetSeconds: on, offsetSeconds: off } = voice.segments;
  return on === null || off === null ? 0 : Math.max(0, off - on);
}

const workspace = new DtwWorkspace();

export function compareVoices(learnerVoice: ScoringVoice, actorVoice: ScoringVoice): Comparison {
  const learner = prepareContours(learnerVoice);
  const actor = prepareContours(actorVoice);
  // Same step for both, so the band and the rates are comparable.
  const step = Math.max(learner.stepSeconds, actor.stepSeconds);
  const l = step === learner.stepSeconds ? learner : prepareContours(learnerVoice, step);
  const a = step === actor.stepSeconds ? actor : prepareContours(actorVoice, step);

  const path = workspace.align(features(l), features(a), { dims: 2, band: 0.3, stepPenalty: 0.05 });

  const pl: number[] = [];
  const pa: number[] = [];
  let pitchAbs = 0;
  let loudAbs = 0;
  const ll: number[] = [];
  const la: number[] = [];
  for (let k = 0; k < path.pathA.length; k++) {
    const i = path.pathA[k];
    const j = path.pathB[k];
    if (Number.isFinite(l.pitchSt[i]) && Number.isFinite(a.pitchSt[j])) {
      pl.push(l.pitchSt[i]);
      pa.push(a.pitchSt[j]);
      pitchAbs += Math.abs(l.pitchSt[i] - a.pitchSt[j]);
    }
    ll.push(l.loudnessDb[i]);
    la.push(a.loudnessDb[j]);
    loudAbs += Math.abs(l.loudnessDb[i] - a.loudnessDb[j]);
  }

  const lp = pausePositions(learnerVoice);
  const ap = pausePositions(actorVoice);
  const pauses = matchPauses(lp, ap);
  const learnerSpan = speechSpan(learnerVoice);
  const actorSpan = Math.max(1e-3, speechSpan(actorVoice));

  return {
    learner: l,
    actor: a,
    pathLearner: path.pathA,
    pathActor: path.pathB,
    intonation: {
      distanceSt: pl.length ? pitchAbs / pl.length : Number.NaN,
      correlation: pearson(pl, pa),
      voicedPairs: pl.length,
      learnerRangeSt: learnerVoice.figures.pitchRangeSemitones ?? pitchRangeSt(l.pitchSt),
      actorRangeSt: actorVoice.figures.pitchRangeSemitones ?? pitchRangeSt(a.pitchSt),
      learnerEndMoveSt: endMovementSt(l.pitchSt, step),
      actorEndMoveSt: endMovementSt(a.pitchSt, step),
    },
    energy: {
      distanceDb: loudAbs / Math.max(1, ll.length),
      correlation: pearson(ll, la),
      // The analysis's own figure, so tips quote the number shown next to them.
      learnerRangeDb: learnerVoice.figures.loudnessRangeDb ?? loudnessRangeDb(l.loudnessDb),
      actorRangeDb: actorVoice.figures.loudnessRangeDb ?? loudnessRangeDb(a.loudnessDb),
    },
    timing: {
      onsetDelaySeconds: (learnerVoice.segments.onsetSeconds ?? 0) - (actorVoice.segments.onsetSeconds ?? 0),
      durationRatio: learnerSpan / actorSpan,
      learnerRate: learnerVoice.figures.syllablesPerSecond,
      actorRate: actorVoice.figures.syllablesPerSecond,
      learnerPauses: lp,
      actorPauses: ap,
      pauseAgreement: pauses.agreement,
      missingPauses: pauses.missing,
      extraPauses: pauses.extra,
    },
  };
}
