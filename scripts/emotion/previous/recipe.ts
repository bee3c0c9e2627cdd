/**
 * The previous emotion model, kept for comparison on the transfer bench (not shipped): its file
 * (emotion-model.json beside this, format emotion-model/1) and its recipe, self-contained so the
 * product code can move on. Recipe: all 106 original utterance functionals, z-scored with the
 * training set's moments (cold) or the speaker's running moments (speaker head); two softmax
 * regression heads; no augmentation, no calibration; arousal and valence are the probability-
 * weighted circumplex places of the classes; the emotion match mixes distribution overlap (0.75)
 * with arousal/valence closeness (0.25).
 */
import { EMOTIONS, type Emotion } from '../../../src/api/contract';
import type { EmotionEstimate, SpeakerStats } from '../../../src/audio/analysis';
import type { ModelHead } from '../../../src/audio/analysis/emotion-model-schema';
import { headLogits, softmax } from '../../../src/audio/analysis/emotion-heads';
import { speakerVariance } from '../../../src/audio/analysis/speaker-stats';
import { statsOf, withoutTake } from '../recipe';
import { trainHead } from '../softmax-model';
import previousJson from './emotion-model.json';

export interface PreviousModel {
  format: 'emotion-model/1';
  classes: Emotion[];
  featureNames: string[];
  globalMean: number[];
  globalStd: number[];
  speakerPrior: number;
  blendTakes: number;
  cold: ModelHead;
  speaker: ModelHead;
  arousalValence: Record<Emotion, [number, number]>;
}

export const PREVIOUS_MODEL = previousJson as unknown as PreviousModel;

const AROUSAL_VALENCE = PREVIOUS_MODEL.arousalValence;
const TRAIN = { hidden: [], l2: 0.03, epochs: 400, learningRate: 0.02, seed: 7 };

/** Rows of the previous model's 106 features, picked by name from a (newer) full feature vector. */
export function pickPrevious(featureNames: readonly string[]): (x: Float64Array) => Float64Array {
  const idx = PREVIOUS_MODEL.featureNames.map((n) => {
    const i = featureNames.indexOf(n);
    if (i < 0) throw new Error(`feature ${n} of the previous model is no longer computed`);
    return i;
  });
  return (x) => Float64Array.from(idx, (i) => x[i]);
}

function normalise(x: Float64Array, stats: SpeakerStats | null, m: PreviousModel): Float64Array {
  const z = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const gm = m.globalMean[i];
    const gv = m.globalStd[i] ** 2;
    let mu = gm;
    let v = gv;
    if (stats && stats.count > 0) {
      const n = stats.count;
      mu = (n * stats.mean[i] + m.speakerPrior * gm) / (n + m.speakerPrior);
      v = (n * speakerVariance(stats, i) + m.speakerPrior * gv) / (n + m.speakerPrior);
    }
    z[i] = Number.isFinite(x[i]) ? (x[i] - mu) / Math.max(1e-6, Math.sqrt(v)) : 0;
  }
  return z;
}

/** The previous classifier; x and stats over the previous model's 106 features. */
export function classifyPrevious(
  x: Float64Array,
  stats: SpeakerStats | null,
  m: PreviousModel,
): EmotionEstimate {
  const cold = softmax(headLogits(m.cold, normalise(x, null, m)));
  const n = stats?.count ?? 0;
  const lambda = n > 0 ? n / (n + m.blendTakes) : 0;
  const p = Float64Array.from(cold);
  if (lambda > 0 && stats) {
    const spk = softmax(headLogits(m.speaker, normalise(x, stats, m)));
    for (let i = 0; i < p.length; i++) p[i] = (1 - lambda) * cold[i] + lambda * spk[i];
  }
  const probabilities = Object.fromEntries(EMOTIONS.map((e) => [e, 0])) as Record<Emotion, number>;
  let best = 0;
  let arousal = 0;
  let valence = 0;
  m.classes.forEach((c, i) => {
    probabilities[c] = p[i];
    if (p[i] > p[best]) best = i;
    arousal += p[i] * AROUSAL_VALENCE[c][0];
    valence += p[i] * AROUSAL_VALENCE[c][1];
  });
  const clamp = (v: number) => Math.max(-1, Math.min(1, v));
  return { detected: m.classes[best], probabilities, arousal: clamp(arousal), valence: clamp(valence) };
}

export interface Row {
  speaker: string;
  emotion: Emotion;
  /** Previous-model features (106). */
  x: Float64Array;
}

/** The previous recipe: fit on clean training rows only. */
export function fitPrevious(train: Row[]): PreviousModel {
  const all = statsOf(train.map((r) => r.x));
  const m: PreviousModel = {
    format: 'emotion-model/1',
    classes: [...EMOTIONS],
    featureNames: PREVIOUS_MODEL.featureNames,
    globalMean: all.mean,
    globalStd: all.m2.map((v) => Math.sqrt(v / all.count) || 1),
    speakerPrior: 2,
    blendTakes: 3,
    cold: { layers: [] },
    speaker: { layers: [] },
    arousalValence: AROUSAL_VALENCE,
  };
  const y = train.map((r) => m.classes.indexOf(r.emotion));
  const bySpeaker = new Map<string, SpeakerStats>();
  for (const spk of new Set(train.map((r) => r.speaker)))
    bySpeaker.set(spk, statsOf(train.filter((r) => r.speaker === spk).map((r) => r.x)));
  m.cold = trainHead(
    train.map((r) => normalise(r.x, null, m)),
    y,
    m.classes.length,
    TRAIN,
  );
  m.speaker = trainHead(
    train.map((r) => normalise(r.x, withoutTake(bySpeaker.get(r.speaker) as SpeakerStats, r.x), m)),
    y,
    m.classes.length,
    TRAIN,
  );
  return m;
}

const MAX_AV_DISTANCE = 2 * Math.SQRT2;
const PLACE: Record<Emotion, { arousal: number; valence: number }> = {
  anger: { arousal: 0.8, valence: -0.6 },
  happiness: { arousal: 0.6, valence: 0.7 },
  fear: { arousal: 0.6, valence: -0.7 },
  disgust: { arousal: 0.2, valence: -0.7 },
  boredom: { arousal: -0.6, valence: -0.3 },
  sadness: { arousal: -0.5, valence: -0.7 },
  neutral: { arousal: 0, valence: 0 },
};

/** The previous emotion-match score (0–100) against an annotated emotion or an actor's reading. */
export function previousMatch(
  learner: EmotionEstimate,
  target: { kind: 'annotated'; emotion: Emotion } | { kind: 'actor'; reading: EmotionEstimate },
): number {
  const top = Math.max(...EMOTIONS.map((e) => learner.probabilities[e]));
  if (target.kind === 'annotated') {
    const place = PLACE[target.emotion];
    const d = Math.hypot(learner.arousal - place.arousal, learner.valence - place.valence);
    return (
      100 *
      (0.75 * (learner.probabilities[target.emotion] / Math.max(1e-9, top)) +
        0.25 * (1 - d / MAX_AV_DISTANCE))
    );
  }
  const a = target.reading;
  let overlap = 0;
  for (const e of EMOTIONS) overlap += Math.sqrt(learner.probabilities[e] * a.probabilities[e]);
  const d = Math.hypot(learner.arousal - a.arousal, learner.valence - a.valence);
  return 100 * (0.75 * Math.min(1, overlap) + 0.25 * (1 - d / MAX_AV_DISTANCE));
}
