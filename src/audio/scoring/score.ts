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
import { resampleIndices, round } from './contour';
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

/** Learner timeline over the speech span, actor values pulled through the DTW path. */
function plotContours(learner: ScoringVoice, c: Comparison | null): Contours {
  const l = c ? c.learner : prepareContours(learner);
  const n = l.pitchSt.length;
  let actorPitch: (number | null)[] | null = null;
  let actorLoud: number[] | null = null;
  if (c) {
    // Mean of the actor points aligned with each learner point.
    const pitchSum = new Float64Array(n);
    const pitchCount = new Uint16Array(n);
    const loudSum = new Float64Array(n);
    const loudCount = new Uint16Array(n);
    for (let k = 0; k < c.pathLearner.length; k++) {
      const i = c.pathLearner[k];
      const j = c.pathActor[k];
      if (Number.isFinite(c.actor.pitchSt[j])) {
        pitchSum[i] += c.actor.pitchSt[j];
        pitchCount[i]++;
      }
      loudSum[i] += c.actor.loudnessDb[j];
      loudCount[i]++;
    }
    actorPitch = Array.from(pitchSum, (s, i) => (pitchCount[i] ? s / pitchCount[i] : null));
    actorLoud = Array.from(loudSum, (s, i) => (loudCount[i] ? s / loudCount[i] : -40));
  }
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

export function buildSpeechScore(input: ScoreInput): SpeechScore {
  const { learner, learnerEmotion } = input;
  const flags = qualityFlags(learner.quality);
  const target = emotionTarget(input.targetEmotion, input.actorEmotion);
  const match = emotionMatch(learnerEmotion, target);
  const claim = emotionClaim(learnerEmotion, input.speakerTakes ?? 0);
  // `clear` keeps its version-2 meaning for every reader of older results (name the class with its
  // percentage): only when the class may be named AND its calibrated percentage holds.
  const clear = claim.named && claim.confidence !== null;
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
    scores: {
      emotion: Math.round(scores.emotion),
      intonation: Math.round(scores.intonation),
      energy: Math.round(scores.energy),
      timing: Math.round(scores.timing),
      quality: Math.round(scores.quality),
    },
    emotion: {
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
    },
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
