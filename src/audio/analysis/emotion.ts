import { EMOTIONS, type Emotion } from '../../api/contract';
import type { DenseLayer, EmotionModelFile, ModelHead } from './emotion-model-schema';
import modelJson from './emotion-model.json';
import { FEATURE_NAMES } from './feature-names';
import { speakerVariance } from './speaker-stats';
import type { EmotionEstimate, SpeakerStats } from './types';

const MODEL = modelJson as unknown as EmotionModelFile;
const MIN_STD = 1e-6;

function checkModel(m: EmotionModelFile): void {
  if (
    m.featureNames.length !== FEATURE_NAMES.length ||
    m.featureNames.some((n, i) => n !== FEATURE_NAMES[i])
  ) {
    throw new Error('emotion-model.json was trained on another feature set: run `npm run train:emotion`');
  }
}
let checked = false;

/** The loaded model file (for provenance and evaluation figures). */
export function emotionModel(): EmotionModelFile {
  return MODEL;
}

/** Normalise features: global (cold start) or speaker moments shrunk toward the global ones. */
export function normalizeFeatures(
  features: Float64Array,
  stats: SpeakerStats | null,
  model: EmotionModelFile,
  out: Float64Array,
): void {
  const k = model.speakerPrior;
  for (let i = 0; i < features.length; i++) {
    const gm = model.globalMean[i];
    const gv = model.globalStd[i] ** 2;
    let mu = gm;
    let v = gv;
    if (stats && stats.count > 0) {
      const n = stats.count;
      mu = (n * stats.mean[i] + k * gm) / (n + k);
      v = (n * speakerVariance(stats, i) + k * gv) / (n + k);
    }
    const x = features[i];
    out[i] = Number.isFinite(x) ? (x - mu) / Math.max(MIN_STD, Math.sqrt(v)) : 0;
  }
}

function dense(layer: DenseLayer, x: Float64Array): Float64Array {
  const y = new Float64Array(layer.outputs);
  for (let o = 0; o < layer.outputs; o++) {
    let s = layer.bias[o];
    const row = o * layer.inputs;
    for (let i = 0; i < layer.inputs; i++) s += layer.weights[row + i] * x[i];
    y[o] = layer.activation === 'relu' ? Math.max(0, s) : s;
  }
  return y;
}

/** Softmax probabilities of a head for normalised input z. */
export function headProbabilities(head: ModelHead, z: Float64Array): Float64Array {
  let h = z;
  for (const layer of head.layers) h = dense(layer, h);
  let max = Number.NEGATIVE_INFINITY;
  for (const v of h) max = Math.max(max, v);
  let sum = 0;
  for (let i = 0; i < h.length; i++) {
    h[i] = Math.exp(h[i] - max);
    sum += h[i];
  }
  for (let i = 0; i < h.length; i++) h[i] /= sum;
  return h;
}

/**
 * Seven-class emotion estimate with arousal/valence. Cold start (no statistics) uses the cold head
 * on globally normalised features; as the speaker's takes accumulate, the speaker-normalised head
 * takes over with weight n / (n + blendTakes).
 */
export function classifyEmotion(
  features: Float64Array,
  stats?: SpeakerStats | null,
  model: EmotionModelFile = MODEL,
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
  const z = new Float64Array(features.length);
  normalizeFeatures(features, null, model, z);
  const cold = headProbabilities(model.cold, z);
  const n = stats?.count ?? 0;
  const lambda = n > 0 ? n / (n + model.blendTakes) : 0;
  const p = new Float64Array(cold.length);
  if (lambda > 0 && stats) {
    normalizeFeatures(features, stats, model, z);
    const spk = headProbabilities(model.speaker, z);
    for (let i = 0; i < p.length; i++) p[i] = (1 - lambda) * cold[i] + lambda * spk[i];
  } else p.set(cold);
  const probabilities = {} as Record<Emotion, number>;
  for (const e of EMOTIONS) probabilities[e] = 0;
  let best = 0;
  let arousal = 0;
  let valence = 0;
  model.classes.forEach((c, i) => {
    probabilities[c] = p[i];
    if (p[i] > p[best]) best = i;
    arousal += p[i] * model.arousalValence[c][0];
    valence += p[i] * model.arousalValence[c][1];
  });
  return {
    detected: model.classes[best],
    probabilities,
    arousal: clamp(arousal),
    valence: clamp(valence),
  };
}

function clamp(v: number): number {
  return Math.max(-1, Math.min(1, v));
}
