/**
 * How well the learner's emotion matches the line's target (pure). Two measures must agree, so that
 * energy alone cannot win a line (an angry take has the energy of a happy line):
 *
 *   score = 100 × energy agreement × category agreement
 *
 * - energy agreement: 1 − |learner's arousal − goal| / 2, the goal being the actor's arousal or, for
 *   an annotated line, where held-out takes of that emotion land on the arousal head (`arousalGoal`
 *   of the model). With speaker statistics the learner's arousal is read against their own baseline
 *   (the speaker heads), so it is the change from their own voice that counts.
 * - category agreement: 1 when the target class (annotated, or the actor's top class) is the class
 *   the model hears most in the learner's take; otherwise half the learner's probability of it
 *   relative to their top class (categoryAgreement). This is where anything beyond energy (valence,
 *   voice quality) enters; where the model cannot tell two emotions of the same energy apart, the
 *   score stays low rather than passing both.
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
  /** 0–1: how close the learner's energy (arousal) is to the target's; null without a target. */
  energyAgreement: number | null;
  /** 0–1: 1 when the target is the learner's top class, else below ½ (see categoryAgreement). */
  categoryAgreement: number | null;
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

/**
 * How far the learner's category reading agrees with the target class: 1 when the target is the
 * class the model hears most, else half its probability relative to the top class. A pass (≥
 * EMOTION_PASS, aggregate.ts) says the line's emotion came across, which an emotion the model hears
 * less than another has not: as p(target)/max p alone, a close second (an unsure fear take on a
 * happiness line, at its energy) passed, and on held-out EmoDB speakers and nemo-dev most
 * wrong-emotion passes were such seconds or a wrong top class (docs/emotion.md, "Pass rates"). Any
 * factor under 0.6 passes the same takes; a half keeps the order among takes that fail.
 */
export function categoryAgreement(probabilities: Record<Emotion, number>, target: Emotion): number {
  const ratio = Math.min(1, (probabilities[target] ?? 0) / Math.max(1e-9, topProbability(probabilities)));
  return ratio >= 1 ? 1 : ratio / 2;
}

export function emotionMatch(
  learner: EmotionReading,
  target: EmotionTarget,
  model: EmotionModelFile = emotionModel(),
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
      energyAgreement: null,
      categoryAgreement: null,
    };
  }
  const goal = target.kind === 'annotated' ? goalOf(target.emotion, model) : target.reading;
  const arousalGap = learner.arousal - goal.arousal;
  const energy = 1 - Math.min(2, Math.abs(arousalGap)) / 2;
  const avDistance = Math.hypot(arousalGap, learner.valence - goal.valence);
  if (target.kind === 'annotated') {
    const p = learner.probabilities[target.emotion] ?? 0;
    const category = categoryAgreement(learner.probabilities, target.emotion);
    return {
      score: 100 * energy * category,
      target: target.emotion,
      targetSource: 'annotated',
      targetProbability: p,
      overlap: null,
      avDistance,
      goal: { arousal: goal.arousal, valence: goal.valence },
      arousalGap,
      energyAgreement: energy,
      categoryAgreement: category,
    };
  }
  const actor = target.reading;
  // The actor's top class is the target, read like an annotated one: the overlap of the two
  // distributions would count two unsure readings as agreeing, which passes on energy alone.
  const p = learner.probabilities[actor.detected] ?? 0;
  const category = categoryAgreement(learner.probabilities, actor.detected);
  return {
    score: 100 * energy * category,
    target: actor.detected,
    targetSource: 'actor',
    targetProbability: p,
    overlap: bhattacharyya(learner.probabilities, actor.probabilities),
    avDistance,
    goal: { arousal: actor.arousal, valence: actor.valence },
    arousalGap,
    energyAgreement: energy,
    categoryAgreement: category,
  };
}

/** What the scoring may say about the category of a reading. */
export interface EmotionClaim {
  /** Whether the top class may be named to the learner (model.naming, decided on held-out speakers). */
  named: boolean;
  /** Which rule applied: a first take (cold) or one read against the learner's own takes. */
  reading: 'cold' | 'baseline';
  /** Calibrated probability shown beside the name; null when no percentage is shown. */
  confidence: number | null;
}

/**
 * Whether the reading's top class may be named, under the rule for a first take or for a learner
 * with `speakerTakes` earlier takes. A model file without a naming rule names nothing.
 */
export function emotionClaim(
  e: EmotionReading,
  speakerTakes: number,
  model: EmotionModelFile = emotionModel(),
): EmotionClaim {
  const naming = model.naming;
  const reading = naming && speakerTakes >= naming.baselineTakes ? 'baseline' : 'cold';
  const threshold = naming?.[reading][e.detected];
  const p = e.probabilities[e.detected] ?? 0;
  const named = threshold !== undefined && !naming?.withheld.includes(e.detected) && p >= threshold;
  return { named, reading, confidence: named && naming?.showPercentage ? p : null };
}

/** How a scene's arc is followed: see sceneArc. */
export interface SceneArc {
  /** 0–100: 50 × (1 + correlation); 50 when either side does not move. */
  score: number;
  /** Pearson correlation of the two line-to-line arousal courses (−1…1), null when either is flat. */
  correlation: number | null;
  lines: number;
}

/**
 * Fewest lines an arc is judged on: with two, any two moving courses correlate at ±1. The arc's AUC
 * on speech the model never heard is printed per scene length by `npm run eval:transfer`.
 */
export const ARC_MIN_LINES = 3;
/**
 * Correlations at which the app says the arc follows the scene, or does not. Set by what the words
 * mean (a clearly shared course; a course that goes the other way), not fitted on any data set;
 * `npm run eval:transfer` prints how often each is said of a scene read in order and shuffled.
 */
export const ARC_FOLLOWS_R = 0.5;
export const ARC_AGAINST_R = 0;

/** What the app says of an arc: it follows the scene, it does not, or nothing (unclear or too short). */
export function arcVerdict(arc: SceneArc): 'follows' | 'against' | null {
  if (arc.correlation === null || arc.lines < ARC_MIN_LINES) return null;
  if (arc.correlation >= ARC_FOLLOWS_R) return 'follows';
  return arc.correlation < ARC_AGAINST_R ? 'against' : null;
}

/**
 * Scene arc: does the learner move from line to line in the same direction as the actor? Each side's
 * arousal per line is centred on its own mean over the scene, so a voice or microphone that reads
 * higher or lower throughout does not count, only the course; then the two courses are correlated.
 * Lines pair by index (the same lines, in scene order); at least 2 are needed.
 */
export function sceneArc(
  learner: ReadonlyArray<Pick<EmotionReading, 'arousal'>>,
  actor: ReadonlyArray<Pick<EmotionReading, 'arousal'>>,
): SceneArc {
  const n = Math.min(learner.length, actor.length);
  if (n < 2) return { score: 50, correlation: null, lines: n };
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
  // Below this variance a course is flat: a correlation of noise would mean nothing.
  const flat = 1e-6;
  if (sxx < flat || syy < flat) return { score: 50, correlation: null, lines: n };
  const r = sxy / Math.sqrt(sxx * syy);
  return { score: 50 * (1 + r), correlation: r, lines: n };
}
