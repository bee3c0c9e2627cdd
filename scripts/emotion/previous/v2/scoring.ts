/**
 * Emotion scoring v2, kept for comparison on the benches (not shipped): its model file (beside this)
 * and what its scoring did with a reading. It named the top class with its calibrated percentage at
 * or above the model's `labelThreshold`, and its match score was (1 − w) × arousal agreement +
 * w × category agreement, w = 0.5 × the learner's top probability (× the actor's, geometric mean).
 */
import { EMOTIONS, type Emotion } from '../../../../src/api/contract';
import type { EmotionEstimate, EmotionModelFile } from '../../../../src/audio/analysis';
import v2Json from './emotion-model.json';

export const V2_MODEL = v2Json as unknown as EmotionModelFile;

const CIRCUMPLEX_AROUSAL: Record<Emotion, number> = {
  anger: 0.8,
  happiness: 0.6,
  fear: 0.6,
  disgust: 0.2,
  boredom: -0.6,
  sadness: -0.5,
  neutral: 0,
};

function top(p: Record<Emotion, number>): number {
  return Math.max(...EMOTIONS.map((e) => p[e] ?? 0));
}

/** v2's claim: the top class and its percentage, at or above the label threshold; else nothing. */
export function v2Claim(e: EmotionEstimate): { named: Emotion | null; confidence: number | null } {
  const c = top(e.probabilities);
  return c >= V2_MODEL.labelThreshold
    ? { named: e.detected, confidence: c }
    : { named: null, confidence: null };
}

export function v2Match(
  learner: EmotionEstimate,
  target: { kind: 'annotated'; emotion: Emotion } | { kind: 'actor'; reading: EmotionEstimate },
): number {
  const confidence = top(learner.probabilities);
  const goal =
    target.kind === 'annotated'
      ? (V2_MODEL.arousalGoal[target.emotion] ?? CIRCUMPLEX_AROUSAL[target.emotion])
      : target.reading.arousal;
  const arousalAgreement = 1 - Math.min(2, Math.abs(learner.arousal - goal)) / 2;
  if (target.kind === 'annotated') {
    const w = 0.5 * confidence;
    const category = (learner.probabilities[target.emotion] ?? 0) / Math.max(1e-9, confidence);
    return 100 * ((1 - w) * arousalAgreement + w * category);
  }
  let overlap = 0;
  for (const e of EMOTIONS)
    overlap += Math.sqrt(
      Math.max(0, learner.probabilities[e]) * Math.max(0, target.reading.probabilities[e]),
    );
  const w = 0.5 * Math.sqrt(confidence * top(target.reading.probabilities));
  return 100 * ((1 - w) * arousalAgreement + w * Math.min(1, overlap));
}
