/**
 * How well the learner's emotion matches the line's target (pure). It leans on what carries across
 * voices and languages and uses the category only as far as the model is sure of it:
 *
 *   score = 100 × ((1 − w) × arousal agreement + w × category agreement),  w = CATEGORY_WEIGHT × c
 *
 * - arousal agreement: 1 − |learner's arousal − goal| / 2, the goal being the actor's arousal or,
 *   for an annotated line, where held-out takes of that emotion land on the arousal head
 *   (`arousalGoal` of the model). With speaker statistics the learner's arousal is read against
 *   their own baseline (the speaker heads), so it is the direction of change across lines that counts.
 * - category agreement: the calibrated probability of the target class relative to the learner's top
 *   class (annotated), or the Bhattacharyya overlap of the two distributions (actor).
 * - c: how sure the category reading is: the learner's top calibrated probability (annotated), the
 *   geometric mean of the learner's and the actor's (actor).
 * - No target: how clearly one emotion is carried (the top probability), so the sub-score still
 *   means something for a line without annotation or reference.
 */
import { EMOTIONS, type Emotion } from '../../api/contract';
import { type EmotionModelFile, emotionModel } from '../analysis';
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

/** Share of the score the category can take when the reading is fully sure. */
export const CATEGORY_WEIGHT = 0.5;

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
  /** Where the target sits in the arousal/valence plane (the actor's reading, or the class's goal). */
  goal: { arousal: number; valence: number } | null;
  /** Learner's arousal minus the goal's (> 0: more energy than the target), null without a target. */
  arousalGap: number | null;
  /** Weight the category got in the score (0 … CATEGORY_WEIGHT). */
  categoryWeight: number;
}

export function bhattacharyya(p: Record<Emotion, number>, q: Record<Emotion, number>): number {
  let sum = 0;
  for (const e of EMOTIONS) sum += Math.sqrt(Math.max(0, p[e] ?? 0) * Math.max(0, q[e] ?? 0));
  return Math.min(1, sum);
}

export function topProbability(p: Record<Emotion, number>): number {
  let best = 0;
  for (const e of EMOTIONS) best = Math.max(best, p[e] ?? 0);
  return best;
}

/** Where an annotated emotion's takes land on the model's arousal scale, and on the valence one. */
export function goalOf(emotion: Emotion, model: EmotionModelFile): { arousal: number; valence: number } {
  return {
    arousal: model.arousalGoal?.[emotion] ?? EMOTION_SPACE[emotion].arousal,
    valence: EMOTION_SPACE[emotion].valence,
  };
}

export function emotionMatch(
  learner: EmotionReading,
  target: EmotionTarget,
  model: EmotionModelFile = emotionModel(),
  categoryWeight = CATEGORY_WEIGHT,
): EmotionMatch {
  const confidence = topProbability(learner.probabilities);
  if (target.kind === 'none') {
    return {
      score: 100 * confidence,
      target: null,
      targetSource: 'none',
      targetProbability: null,
      overlap: null,
      avDistance: null,
      goal: null,
      arousalGap: null,
      categoryWeight: 0,
    };
  }
  const goal = target.kind === 'annotated' ? goalOf(target.emotion, model) : target.reading;
  const arousalGap = learner.arousal - goal.arousal;
  const arousalAgreement = 1 - Math.min(2, Math.abs(arousalGap)) / 2;
  const avDistance = Math.hypot(arousalGap, learner.valence - goal.valence);
  if (target.kind === 'annotated') {
    const p = learner.probabilities[target.emotion] ?? 0;
    const w = categoryWeight * confidence;
    const category = p / Math.max(1e-9, confidence);
    return {
      score: 100 * ((1 - w) * arousalAgreement + w * category),
      target: target.emotion,
      targetSource: 'annotated',
      targetProbability: p,
      overlap: null,
      avDistance,
      goal: { arousal: goal.arousal, valence: goal.valence },
      arousalGap,
      categoryWeight: w,
    };
  }
  const actor = target.reading;
  const overlap = bhattacharyya(learner.probabilities, actor.probabilities);
  const w = categoryWeight * Math.sqrt(confidence * topProbability(actor.probabilities));
  return {
    score: 100 * ((1 - w) * arousalAgreement + w * overlap),
    target: actor.detected,
    targetSource: 'actor',
    targetProbability: learner.probabilities[actor.detected] ?? 0,
    overlap,
    avDistance,
    goal: { arousal: actor.arousal, valence: actor.valence },
    arousalGap,
    categoryWeight: w,
  };
}

/** What the scoring may say about the category of a reading: whether it is named, and at what percentage. */
export interface EmotionClaim {
  named: boolean;
  /** Calibrated probability shown beside the name; null when no percentage is shown. */
  confidence: number | null;
}

export function emotionClaim(
  e: EmotionReading,
  _speakerTakes: number,
  model: EmotionModelFile = emotionModel(),
): EmotionClaim {
  const c = topProbability(e.probabilities);
  return c >= model.labelThreshold ? { named: true, confidence: c } : { named: false, confidence: null };
}

/** Scene arc: how the learner's line-to-line arousal follows the actor's, each centred on its own mean. */
export function sceneArc(learner: EmotionReading[], actor: EmotionReading[]): { score: number } {
  const n = Math.min(learner.length, actor.length);
  const lm = learner.slice(0, n).reduce((s, r) => s + r.arousal, 0) / n;
  const am = actor.slice(0, n).reduce((s, r) => s + r.arousal, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const x = learner[i].arousal - lm;
    const y = actor[i].arousal - am;
    sxy += x * y;
    sxx += x * x;
    syy += y * y;
  }
  const r = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
  return { score: 50 * (1 + r) };
}
