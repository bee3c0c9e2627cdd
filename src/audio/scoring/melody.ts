/**
 * "Your voice with the actor's melody" (pure): the learner's take resynthesised with the actor's
 * intonation, timing and loudness, keeping the learner's own timbre and register.
 *
 * - Timing: the comparison's DTW path (compare.ts, the alignment the overlay draws) maps each moment
 *   of the actor's line to the moment of the take that says the same thing; the output follows the
 *   actor's clock, so it lasts as long as the actor's line.
 * - Pitch: the actor's contour in semitones re the actor's median, moved onto the learner's median
 *   (the rule the pitch guide uses), so a man dubbing an actress keeps a man's voice.
 * - Loudness: the actor's level re the actor's mean replaces the take's level re its own mean.
 * - The grains themselves are the learner's (TD-PSOLA, src/audio/dsp/psola.ts): formants are kept.
 */
import { robustPitchTrack } from '../analysis/pitch-figures';
import { type PsolaPlan, pitchMarks, psola } from '../dsp/psola';
import type { Comparison } from './compare';
import { fillGaps, median, speechFrames } from './contour';
import type { ScoringVoice } from './types';

/** Below this much voiced speech (s) a contour cannot be carried over audibly. */
export const MIN_VOICED_SECONDS = 0.4;
/** Loudness changes are bounded: a pause of the actor's becomes quiet, not silent noise gating. */
const MAX_CUT_DB = -24;
/** Raising quiet parts further than this would raise the room noise with them. */
const MAX_BOOST_DB = 6;
/*
 * The gains are then shifted so the largest is 0 dB: the actor's envelope is relative, and a take
 * never gets louder than it was, so no boosted grain can step further than the take itself does.
 */
/**
 * An actor target further than this from the actor's median (semitones) is the tracker reading a
 * fricative as voice (a "sch" read at 500 Hz), not intonation: it is dropped and bridged from its
 * neighbours, or the take would squeak there. An octave holds even shouted speech.
 */
export const MAX_TARGET_SEMITONES = 12;
/** Output peak ceiling (linear): just under full scale, never clipped. */
const PEAK_CEILING = 0.98;

export type MelodyRefusal = 'take_too_little_voiced' | 'actor_too_little_voiced';

export interface MelodyOutput {
  ok: true;
  samples: Float32Array;
  sampleRate: number;
  /** The learner's median f0 (Hz): the register the actor's contour was moved to. */
  learnerMedianHz: number;
  /** The actor's median f0 (Hz). */
  actorMedianHz: number;
  /** Linear scale applied at the end so the peak stays under full scale (1 when none). */
  peakScale: number;
}

export type MelodyResult = MelodyOutput | { ok: false; reason: MelodyRefusal };

export interface MelodyInput {
  /** The take as analysed (mono, at `sampleRate`, the same samples the analysis read). */
  take: Float32Array;
  sampleRate: number;
  learner: ScoringVoice;
  actor: ScoringVoice;
  comparison: Comparison;
}

/** The speech span's repaired track (pitch-figures.ts): the frames the contours are read from. */
function speechTrack(voice: ScoringVoice): Float64Array {
  const { from, to } = speechFrames(voice);
  return robustPitchTrack(voice.frames.f0Hz, from, to, voice.frames.hopSeconds);
}

function voicedSeconds(voice: ScoringVoice): number {
  return speechTrack(voice).filter((f) => f > 0).length * voice.frames.hopSeconds;
}

function medianF0(voice: ScoringVoice): number {
  return median(speechTrack(voice).filter((f) => f > 0));
}

/** Piecewise-linear lookup of `y` at fractional index `i` (clamped at the ends). */
function at(y: Float64Array, i: number): number {
  if (y.length === 0) return Number.NaN;
  if (i <= 0) return y[0];
  if (i >= y.length - 1) return y[y.length - 1];
  const k = Math.floor(i);
  return y[k] + (y[k + 1] - y[k]) * (i - k);
}

/**
 * For each actor contour point, the learner contour point it aligns with (mean over the path's
 * steps on that point), made non-decreasing so time never runs backwards.
 */
export function actorToLearnerPoints(comparison: Comparison): Float64Array {
  const n = comparison.actor.pitchSt.length;
  const sum = new Float64Array(n);
  const count = new Float64Array(n);
  for (let s = 0; s < comparison.pathActor.length; s++) {
    sum[comparison.pathActor[s]] += comparison.pathLearner[s];
    count[comparison.pathActor[s]]++;
  }
  const out = new Float64Array(n);
  let last = 0;
  for (let a = 0; a < n; a++) {
    const v = count[a] > 0 ? sum[a] / count[a] : last;
    last = Math.max(last, v);
    out[a] = last;
  }
  return out;
}

/** The resynthesis plan: output on the actor's clock, grains from the take, pitch and level from the actor. */
export function melodyPlan(input: MelodyInput, learnerMedianHz: number): PsolaPlan {
  const { comparison, learner, actor, sampleRate } = input;
  const step = comparison.actor.stepSeconds;
  const actorStart = comparison.actor.fromFrame * actor.frames.hopSeconds;
  const learnerStart = comparison.learner.fromFrame * learner.frames.hopSeconds;
  const actorPoints = comparison.actor.pitchSt.length;
  const actorEnd = actorStart + actorPoints * step;
  const learnerEnd = learnerStart + comparison.learner.pitchSt.length * step;
  const map = actorToLearnerPoints(comparison);
  const actorSt = fillGaps(
    comparison.actor.pitchSt.map((st) => (Math.abs(st) > MAX_TARGET_SEMITONES ? Number.NaN : st)),
  );
  const actorDb = comparison.actor.loudnessDb;
  const learnerDb = comparison.learner.loudnessDb;
  // Contour point p covers [start + p·step, start + (p+1)·step): its centre is at p + 0.5.
  const pointOf = (t: number, start: number) => (t - start) / step - 0.5;
  const gainDb = new Float64Array(actorPoints);
  let loudest = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < actorPoints; a++) {
    const db = actorDb[a] - at(learnerDb, map[a]);
    gainDb[a] = Math.min(MAX_BOOST_DB, Math.max(MAX_CUT_DB, Number.isFinite(db) ? db : 0));
    loudest = Math.max(loudest, gainDb[a]);
  }
  const shift = Number.isFinite(loudest) ? loudest : 0;
  for (let a = 0; a < actorPoints; a++) gainDb[a] -= shift;
  const edgeGain = 10 ** (Math.min(0, -shift) / 20);
  return {
    outputLength: Math.round(actor.durationSeconds * sampleRate),
    sourceTime(tOut) {
      if (tOut < actorStart) return Math.max(0, learnerStart - (actorStart - tOut));
      if (tOut >= actorEnd) return learnerEnd + (tOut - actorEnd);
      return learnerStart + (at(map, pointOf(tOut, actorStart)) + 0.5) * step;
    },
    targetF0(tOut) {
      if (tOut < actorStart || tOut >= actorEnd) return 0;
      const st = at(actorSt, pointOf(tOut, actorStart));
      return Number.isFinite(st) ? learnerMedianHz * 2 ** (st / 12) : 0;
    },
    gain(tOut) {
      if (tOut < actorStart || tOut >= actorEnd) return edgeGain;
      return 10 ** (at(gainDb, pointOf(tOut, actorStart)) / 20);
    },
  };
}

/** The learner's take with the actor's melody, or why it cannot be made. */
export function resynthesiseWithMelody(input: MelodyInput): MelodyResult {
  if (voicedSeconds(input.learner) < MIN_VOICED_SECONDS)
    return { ok: false, reason: 'take_too_little_voiced' };
  if (voicedSeconds(input.actor) < MIN_VOICED_SECONDS)
    return { ok: false, reason: 'actor_too_little_voiced' };
  const learnerMedianHz = medianF0(input.learner);
  const actorMedianHz = medianF0(input.actor);
  const marks = pitchMarks(
    input.take,
    input.sampleRate,
    input.learner.frames.f0Hz,
    input.learner.frames.hopSeconds,
  );
  const samples = psola(input.take, input.sampleRate, marks, melodyPlan(input, learnerMedianHz));
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    if (!Number.isFinite(samples[i])) samples[i] = 0;
    peak = Math.max(peak, Math.abs(samples[i]));
  }
  const peakScale = peak > PEAK_CEILING ? PEAK_CEILING / peak : 1;
  if (peakScale !== 1) for (let i = 0; i < samples.length; i++) samples[i] *= peakScale;
  return { ok: true, samples, sampleRate: input.sampleRate, learnerMedianHz, actorMedianHz, peakScale };
}
