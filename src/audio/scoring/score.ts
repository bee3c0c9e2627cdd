/**
 * Builds the contract `SpeechScore` for one take (pure): emotion match, comparison with the actor
 * (when there is a reference), sub-scores, plotting contours and tips.
 */
import {
  type ComparisonFigures,
  type Contours,
  type Emotion,
  SPEECH_SCORE_VERSION,
  type SpeechScore,
} from '../../api/contract';
import { type Comparison, compareVoices, loudnessRangeDb, pitchRangeSt, prepareContours } from './compare';
import { decimate, medianSmooth3, resampleIndices, round, semitoneContour } from './contour';
import { emotionClaim, emotionMatch } from './emotion-match';
import {
  compareParts,
  overallScore,
  qualityFlags,
  qualityScore,
  soloParts,
  subScoresFromParts,
} from './subscores';
import { buildTips } from './tips';
import type { EmotionReading, EmotionTarget, ScoringVoice } from './types';

/** Points in the plotted contours. */
export const CONTOUR_POINTS = 100;

export interface ScoreInput {
  takeId: string;
  subtitlesId: string;
  filmId: string;
  attempt: number;
  audioUrl: string;
  createdAt: string;
  learner: ScoringVoice;
  learnerEmotion: EmotionReading;
  actor: ScoringVoice | null;
  actorEmotion: EmotionReading | null;
  /** The line's annotated target emotion, when the film has one. */
  targetEmotion: Emotion | null;
  /** The learner's earlier takes behind `learnerEmotion`'s speaker statistics (0: a first take, read cold). */
  speakerTakes?: number;
}

export function emotionTarget(
  targetEmotion: Emotion | null,
  actorEmotion: EmotionReading | null,
): EmotionTarget {
  if (targetEmotion) return { kind: 'annotated', emotion: targetEmotion };
  if (actorEmotion) return { kind: 'actor', reading: actorEmotion };
  return { kind: 'none' };
}

function roundProbabilities(p: Record<Emotion, number>): Record<Emotion, number> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, round(v, 4)])) as Record<Emotion, number>;
}

/** Mean of the actor-clock points aligned with each learner point (null where none is finite). */
function pullOntoLearner(c: Comparison, actorValues: Float64Array): (number | null)[] {
  const n = c.learner.pitchSt.length;
  const sum = new Float64Array(n);
  const count = new Uint16Array(n);
  for (let k = 0; k < c.pathLearner.length; k++) {
    const v = actorValues[c.pathActor[k]];
    if (!Number.isFinite(v)) continue;
    sum[c.pathLearner[k]] += v;
    count[c.pathLearner[k]]++;
  }
  return Array.from(sum, (s, i) => (count[i] ? s / count[i] : null));
}

/** Learner timeline over the speech span, actor values pulled through the DTW path. */
function plotContours(learner: ScoringVoice, c: Comparison | null): Contours {
  const l = c ? c.learner : prepareContours(learner);
  const n = l.pitchSt.length;
  const actorPitch = c ? pullOntoLearner(c, c.actor.pitchSt) : null;
  const actorLoud = c ? pullOntoLearner(c, c.actor.loudnessDb).map((v) => v ?? -40) : null;
  const idx = resampleIndices(n, CONTOUR_POINTS);
  const t0 = l.fromFrame * learner.frames.hopSeconds;
  const num = (v: number) => (Number.isFinite(v) ? round(v, 2) : null);
  return {
    t: idx.map((i) => round(t0 + i * l.stepSeconds, 3)),
    learnerPitch: idx.map((i) => num(l.pitchSt[i])),
    actorPitch: actorPitch
      ? idx.map((i) => (actorPitch[i] === null ? null : round(actorPitch[i] as number, 2)))
      : null,
    learnerLoudness: idx.map((i) => round(l.loudnessDb[i], 2)),
    actorLoudness: actorLoud ? idx.map((i) => round(actorLoud[i], 2)) : null,
  };
}

/**
 * The pitch heard in the melody version, read back from its audio (`outputF0Hz`: its pitch track,
 * one value per `hopSeconds`), drawn like the actor's: the melody version runs on the actor's clock
 * (melody.ts), so its frames over the actor's speech span are prepared as compare.ts prepares the
 * actor's (semitones re its own median, same decimation and smoothing) and pulled onto the
 * learner's timeline through the same path. Where it departs from the actor's line, the
 * resynthesis missed the target: the chart shows what was made, not what was asked for.
 */
export function plotMelodyPitch(
  c: Comparison,
  outputF0Hz: ArrayLike<number>,
  hopSeconds: number,
): (number | null)[] {
  const factor = Math.max(1, Math.round(c.actor.stepSeconds / hopSeconds));
  const from = c.actor.fromFrame;
  const to = from + c.actor.pitchSt.length * factor;
  const f0 = new Float64Array(to);
  for (let i = 0; i < Math.min(to, outputF0Hz.length); i++) f0[i] = outputF0Hz[i];
  const st = medianSmooth3(decimate(semitoneContour(f0, from, to), factor));
  const pulled = pullOntoLearner(c, st);
  return resampleIndices(c.learner.pitchSt.length, CONTOUR_POINTS).map((i) =>
    pulled[i] === null ? null : round(pulled[i] as number, 2),
  );
}

function comparisonFigures(c: Comparison): ComparisonFigures {
  const n = (v: number | null, digits = 2) => (v === null || !Number.isFinite(v) ? null : round(v, digits));
  return {
    pitchDistanceSt: n(c.intonation.distanceSt),
    pitchCorrelation: n(c.intonation.correlation, 3),
    learnerEndMoveSt: n(c.intonation.learnerEndMoveSt),
    actorEndMoveSt: n(c.intonation.actorEndMoveSt),
    loudnessDistanceDb: round(c.energy.distanceDb, 2),
    loudnessCorrelation: n(c.energy.correlation, 3),
    onsetDelaySeconds: round(c.timing.onsetDelaySeconds, 3),
    durationRatio: round(c.timing.durationRatio, 3),
    pauseAgreement: round(c.timing.pauseAgreement, 3),
  };
}

/** The sub-scores as whole numbers, as stored. */
function roundScores(scores: SpeechScore['scores']): SpeechScore['scores'] {
  return {
    emotion: Math.round(scores.emotion),
    intonation: Math.round(scores.intonation),
    energy: Math.round(scores.energy),
    timing: Math.round(scores.timing),
    quality: Math.round(scores.quality),
  };
}

/** What the take's emotion reads as, against the line's target, and what may be said of it. */
function emotionFigures(
  input: ScoreInput,
  match: ReturnType<typeof emotionMatch>,
  claim: ReturnType<typeof emotionClaim>,
): SpeechScore['emotion'] {
  const { learnerEmotion } = input;
  // `clear` keeps its version-2 meaning for every reader of older results (name the class with its
  // percentage): only when the class may be named AND its calibrated percentage holds.
  const clear = claim.named && claim.confidence !== null;
  return {
    detected: learnerEmotion.detected,
    probabilities: roundProbabilities(learnerEmotion.probabilities),
    arousal: round(learnerEmotion.arousal, 3),
    valence: round(learnerEmotion.valence, 3),
    target: match.target,
    targetSource: match.targetSource,
    actorProbabilities: input.actorEmotion ? roundProbabilities(input.actorEmotion.probabilities) : null,
    ...(claim.confidence === null ? {} : { confidence: round(claim.confidence, 3) }),
    clear,
    named: claim.named,
    reading: claim.reading,
    voiceTakes: input.speakerTakes ?? 0,
    targetArousal: match.goal ? round(match.goal.arousal, 3) : null,
    arousalGap: match.arousalGap === null ? null : round(match.arousalGap, 3),
    energyAgreement: match.energyAgreement === null ? null : round(match.energyAgreement, 3),
    categoryAgreement: match.categoryAgreement === null ? null : round(match.categoryAgreement, 3),
  };
}

export function buildSpeechScore(input: ScoreInput): SpeechScore {
  const { learner, learnerEmotion } = input;
  const flags = qualityFlags(learner.quality);
  const target = emotionTarget(input.targetEmotion, input.actorEmotion);
  const match = emotionMatch(learnerEmotion, target);
  const claim = emotionClaim(learnerEmotion, input.speakerTakes ?? 0);
  const comparison =
    input.actor && flags.speechDetected && input.actor.quality.speechDetected
      ? compareVoices(learner, input.actor)
      : null;
  const own = comparison?.learner ?? prepareContours(learner);
  const solo = {
    pitchRangeSt: learner.figures.pitchRangeSemitones ?? pitchRangeSt(own.pitchSt),
    loudnessRangeDb: learner.figures.loudnessRangeDb ?? loudnessRangeDb(own.loudnessDb),
  };
  const parts = comparison
    ? compareParts(comparison)
    : soloParts(learner, solo.pitchRangeSt, solo.loudnessRangeDb);
  const quality = qualityScore(learner.quality);
  const rest = flags.speechDetected ? subScoresFromParts(parts) : { intonation: 0, energy: 0, timing: 0 };
  const scores = {
    emotion: flags.speechDetected ? match.score : 0,
    ...rest,
    quality,
  };
  const overall = overallScore(scores);
  const tips = buildTips({
    learner,
    actor: input.actor,
    flags,
    emotion: learnerEmotion,
    named: claim.named,
    confidence: claim.confidence,
    match,
    comparison,
    parts,
    solo,
  });

  return {
    version: SPEECH_SCORE_VERSION,
    takeId: input.takeId,
    subtitlesId: input.subtitlesId,
    filmId: input.filmId,
    attempt: input.attempt,
    overall: Math.round(overall),
    scores: roundScores(scores),
    emotion: emotionFigures(input, match, claim),
    prosody: { learner: learner.figures, actor: input.actor?.figures ?? null },
    contours: plotContours(learner, comparison),
    quality: {
      speechDetected: flags.speechDetected,
      tooQuiet: flags.tooQuiet,
      clipped: flags.clipped,
      snrDb: learner.quality.snrDb === null ? null : round(learner.quality.snrDb, 1),
    },
    statements: tips,
    comparison: comparison ? comparisonFigures(comparison) : null,
    deliveryLikeness: comparison !== null,
    audioUrl: input.audioUrl,
    createdAt: input.createdAt,
  };
}
