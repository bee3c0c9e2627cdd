/**
 * How well the learner's emotion matches the line's target (pure).
 *
 * - Annotated target: the learner's probability of the target relative to their most likely class,
 *   plus closeness in arousal/valence to where that emotion sits in the circumplex.
 * - Actor target: Bhattacharyya overlap of the two emotion distributions, plus closeness of the two
 *   arousal/valence points. Comparing distributions (not just the top class) credits a take that is
 *   "mostly angry, a bit disgusted" against an actor who is the same.
 * - No target: how clearly one emotion is carried (the top probability), so the sub-score still
 *   means something for a line without annotation or reference.
 */
import { EMOTIONS, type Emotion } from '../../api/contract';
import type { EmotionReading, EmotionTarget } from './types';

/** Typical arousal/valence of each class in [-1, 1] (circumplex placement used in the literature). */
export const EMOTION_SPACE: Record<Emotion, { arousal: number; valence: number }> = {
  anger: { arousal: 0.8, valence: -0.6 },
  happiness: { arousal: 0.6, valence: 0.7 },
  fear: { arousal: 0.6, valence: -0.7 },
  disgust: { arousal: 0.2, valence: -0.7 },
  boredom: { arousal: -0.6, valence: -0.3 },
  sadness: { arousal: -0.5, valence: -0.7 },
  neutral: { arousal: 0, valence: 0 },
};

const MAX_AV_DISTANCE = 2 * Math.SQRT2;
const DISTRIBUTION_WEIGHT = 0.75;

export interface EmotionMatch {
  /** 0–100. */
  score: number;
  target: Emotion | null;
  targetSource: EmotionTarget['kind'];
  /** Learner's probability of the target class (annotated or the actor's top class). */
  targetProbability: number | null;
  /** Distribution overlap with the actor (0–1), when the actor is the target. */
  overlap: number | null;
  /** Euclidean distance in the arousal/valence plane. */
  avDistance: number | null;
  /** Where the target sits in the arousal/valence plane (the actor's reading, or the class's place). */
  goal: { arousal: number; valence: number } | null;
}

export function bhattacharyya(p: Record<Emotion, number>, q: Record<Emotion, number>): number {
  let sum = 0;
  for (const e of EMOTIONS) sum += Math.sqrt(Math.max(0, p[e] ?? 0) * Math.max(0, q[e] ?? 0));
  return Math.min(1, sum);
}

function maxProbability(p: Record<Emotion, number>): number {
  let best = 0;
  for (const e of EMOTIONS) best = Math.max(best, p[e] ?? 0);
  return best;
}

export function emotionMatch(learner: EmotionReading, target: EmotionTarget): EmotionMatch {
  if (target.kind === 'none') {
    return {
      score: 100 * maxProbability(learner.probabilities),
      target: null,
      targetSource: 'none',
      targetProbability: null,
      overlap: null,
      avDistance: null,
      goal: null,
    };
  }
  if (target.kind === 'annotated') {
    const place = EMOTION_SPACE[target.emotion];
    const avDistance = Math.hypot(learner.arousal - place.arousal, learner.valence - place.valence);
    const p = learner.probabilities[target.emotion] ?? 0;
    const relative = p / Math.max(1e-9, maxProbability(learner.probabilities));
    const score =
      100 * (DISTRIBUTION_WEIGHT * relative + (1 - DISTRIBUTION_WEIGHT) * (1 - avDistance / MAX_AV_DISTANCE));
    return {
      score,
      target: target.emotion,
      targetSource: 'annotated',
      targetProbability: p,
      overlap: null,
      avDistance,
      goal: place,
    };
  }
  const actor = target.reading;
  const overlap = bhattacharyya(learner.probabilities, actor.probabilities);
  const avDistance = Math.hypot(learner.arousal - actor.arousal, learner.valence - actor.valence);
  const score =
    100 * (DISTRIBUTION_WEIGHT * overlap + (1 - DISTRIBUTION_WEIGHT) * (1 - avDistance / MAX_AV_DISTANCE));
  return {
    score,
    target: actor.detected,
    targetSource: 'actor',
    targetProbability: learner.probabilities[actor.detected] ?? 0,
    overlap,
    avDistance,
    goal: { arousal: actor.arousal, valence: actor.valence },
  };
}
