import { EMOTIONS, type Emotion } from '../../api/contract';
import { headLogits, softmax } from './emotion-heads';
import type { EmotionModelFile, HeadSet } from './emotion-model-schema';
import modelJson from './emotion-model.json';
import { type TypicalVoicesFile, typicalVoiceStats } from './emotion-voices';
import voicesJson from './emotion-voices.json';
import { FEATURE_NAMES } from './feature-names';
import { speakerVariance } from './speaker-stats';
import type { EmotionEstimate, SpeakerStats } from './types';

const MODEL = modelJson as unknown as EmotionModelFile;
const VOICES = voicesJson as unknown as TypicalVoicesFile;
const MIN_STD = 1e-6;

const sameFeatures = (names: string[]) =>
  names.length === FEATURE_NAMES.length && names.every((n, i) => n === FEATURE_NAMES[i]);

function checkModel(m: EmotionModelFile): void {
  if (!sameFeatures(m.featureNames)) {
    throw new Error('emotion-model.json was trained on another feature set: run `npm run train:emotion`');
  }
  if (!sameFeatures(VOICES.featureNames)) {
    throw new Error('emotion-voices.json was built on another feature set: run `npm run build:voices`');
  }
}
let checked = false;

/** The typical voices a first take is read against (emotion-voices.ts). */
export function typicalVoices(): TypicalVoicesFile {
  return VOICES;
}

/** What is known of a take beyond its features. */
export interface ReadingContext {
  /**
   * BCP 47 language of the speech (the film's lines, else the interface's); unknown or not held:
   * the typical voice pooled over the languages held.
   */
  language?: string | null;
  /**
   * Typical voices to read a first take against, and to shrink a learner's statistics toward for
   * arousal; null: neither (the v2 reading: the cold heads alone on a first take).
   */
  voices?: TypicalVoicesFile | null;
}

/** The loaded model file (for provenance, the label threshold and evaluation figures). */
export function emotionModel(): EmotionModelFile {
  return MODEL;
}

/** Index of each of a head set's inputs in the full feature vector (cached per head set). */
const inputIndex = new WeakMap<HeadSet, Int32Array>();
function indicesOf(set: HeadSet, model: EmotionModelFile): Int32Array {
  let idx = inputIndex.get(set);
  if (!idx) {
    idx = Int32Array.from(set.inputs, (n) => {
      const i = model.featureNames.indexOf(n);
      if (i < 0) throw new Error(`emotion model input ${n} is not one of its features`);
      return i;
    });
    inputIndex.set(set, idx);
  }
  return idx;
}

/**
 * The inputs of a head set, normalised: with the global moments (stats null: a first take), or with
 * the speaker's running moments shrunk toward the global ones by `speakerPrior` pseudo-takes (the
 * mean toward `priorMean` instead when given: a typical voice, learnerArousal).
 * A non-finite feature (unknown) becomes 0, the population mean.
 */
export function normalizeFeatures(
  features: Float64Array,
  stats: SpeakerStats | null,
  model: EmotionModelFile,
  set: HeadSet,
  priorMean?: ArrayLike<number>,
): Float64Array {
  const idx = indicesOf(set, model);
  const z = new Float64Array(idx.length);
  const k = model.speakerPrior;
  for (let j = 0; j < idx.length; j++) {
    const i = idx[j];
    const gm = model.globalMean[i];
    const gv = model.globalStd[i] ** 2;
    let mu = gm;
    let v = gv;
    if (stats && stats.count > 0) {
      const n = stats.count;
      mu = (n * stats.mean[i] + k * (priorMean ? priorMean[i] : gm)) / (n + k);
      v = (n * speakerVariance(stats, i) + k * gv) / (n + k);
    }
    const x = features[i];
    z[j] = Number.isFinite(x) ? (x - mu) / Math.max(MIN_STD, Math.sqrt(v)) : 0;
  }
  return z;
}

interface SetOutput {
  probabilities: Float64Array;
  arousal: number;
  valence: number;
}

/** Calibrated class probabilities and the arousal and valence heads' readings in [-1, 1]. */
export function runHeadSet(set: HeadSet, z: Float64Array): SetOutput {
  const probabilities = softmax(headLogits(set.category, z), set.temperature);
  const arousal = signedReading(set.arousal, z);
  const valence = signedReading(set.valence, z);
  return { probabilities, arousal, valence };
}

/** A two-class head's reading from -1 to 1: its second class's probability, rescaled. */
function signedReading(head: Parameters<typeof headLogits>[0], z: Float64Array): number {
  return 2 * softmax(headLogits(head, z))[1] - 1;
}

/** The typical voices a reading is set against (the shipped ones unless given), or none. */
function voicesFor(context: ReadingContext) {
  const voices = context.voices === undefined ? VOICES : context.voices;
  return voices && voices.weight > 0 ? voices : null;
}

/**
 * The arousal of a first take: the cold heads' reading mixed with the speaker heads' reading against
 * the typical voice of the take's language and register (emotion-voices.ts). Only arousal: read that
 * way the category and valence were no better out of domain and the category worse (docs/emotion.md,
 * "The first take").
 */
function firstTakeArousal(
  features: Float64Array,
  coldArousal: number,
  model: EmotionModelFile,
  context: ReadingContext,
): number {
  const voices = voicesFor(context);
  if (!voices) return coldArousal;
  const typical = typicalVoiceStats(voices, features, context.language);
  const z = normalizeFeatures(features, typical, model, model.speaker);
  const against = signedReading(model.speaker.arousal, z);
  return (1 - voices.weight) * coldArousal + voices.weight * against;
}

/**
 * The speaker heads' arousal against the learner's own takes, their mean shrunk by `speakerPrior`
 * pseudo-takes toward the typical voice of their language and register rather than toward EmoDB's
 * mean over all its actors' emotions: a single warm-up take then reads a neutral voice as calm, not
 * as the average of acted emotions. The register is read off the learner's own mean (the warm-up is
 * a neutral line), not off the take, whose pitch rises with the energy it is read for. Category and
 * valence keep EmoDB's mean (read against a typical voice they were no better out of domain).
 * docs/emotion.md, "The voice warm-up".
 */
function learnerArousal(
  features: Float64Array,
  stats: SpeakerStats,
  ownArousal: number,
  model: EmotionModelFile,
  context: ReadingContext,
): number {
  const voices = voicesFor(context);
  if (!voices) return ownArousal;
  const typical = typicalVoiceStats(voices, stats.mean, context.language);
  const z = normalizeFeatures(features, stats, model, model.speaker, typical.mean);
  return signedReading(model.speaker.arousal, z);
}

/**
 * Seven-class emotion estimate with arousal and valence from their own heads. A first take (no
 * statistics) is read by the cold heads on globally normalised features, its arousal also against a
 * typical voice (firstTakeArousal); once the learner's own takes exist (the voice warm-up counts),
 * the speaker heads against them come in with weight n / (n + blendTakes), their arousal against
 * the learner's takes shrunk toward the typical voice (learnerArousal).
 */
export function classifyEmotion(
  features: Float64Array,
  stats?: SpeakerStats | null,
  model: EmotionModelFile = MODEL,
  context: ReadingContext = {},
): EmotionEstimate {
  // Checked on first use rather than at import, so the training script can load this module
  // while the committed model still describes an older feature set.
  if (model === MODEL && !checked) {
    checkModel(MODEL);
    checked = true;
  }
  if (features.length !== model.featureNames.length) {
    throw new Error(`expected ${model.featureNames.length} features, got ${features.length}`);
  }
  const cold = runHeadSet(model.cold, normalizeFeatures(features, null, model, model.cold));
  const n = stats?.count ?? 0;
  const lambda = stats && n > 0 ? n / (n + model.blendTakes) : 0;
  let { probabilities: p, arousal, valence } = cold;
  if (stats && lambda > 0) {
    const own = runHeadSet(model.speaker, normalizeFeatures(features, stats, model, model.speaker));
    own.arousal = learnerArousal(features, stats, own.arousal, model, context);
    ({ probabilities: p, arousal, valence } = mixOutputs(cold, own, lambda));
  } else {
    arousal = firstTakeArousal(features, cold.arousal, model, context);
  }
  const probabilities = {} as Record<Emotion, number>;
  for (const e of EMOTIONS) probabilities[e] = 0;
  let best = 0;
  model.classes.forEach((c, i) => {
    probabilities[c] = p[i];
    if (p[i] > p[best]) best = i;
  });
  return { detected: model.classes[best], probabilities, arousal: clamp(arousal), valence: clamp(valence) };
}

/** (1 − w) × a + w × b, output by output. */
function mixOutputs(a: SetOutput, b: SetOutput, w: number): SetOutput {
  return {
    probabilities: a.probabilities.map((v, i) => (1 - w) * v + w * b.probabilities[i]),
    arousal: (1 - w) * a.arousal + w * b.arousal,
    valence: (1 - w) * a.valence + w * b.valence,
  };
}

function clamp(v: number): number {
  return Math.max(-1, Math.min(1, v));
}
