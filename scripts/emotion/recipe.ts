/**
 * The shipped emotion model's recipe (train.ts fits it on all of EmoDB; the evaluations refit it per
 * fold). What it does for voices it has not heard:
 *  - augmentation: every training take also enters as `variants` shifted copies (other pitch, vocal
 *    tract, tempo, microphone, noise, room; scripts/eval/transfer/conditions.ts `augment`);
 *  - inputs: the cold heads (a first take, nothing known of the voice) do not read measures that
 *    mostly say who is speaking or into what: absolute pitch level, formant frequencies, MFCC means;
 *    the speaker heads read everything, since the learner's own moments take the voice out;
 *  - heads: category, arousal and valence are learned separately;
 *  - calibration: the category logits get a temperature fitted on held-out speakers' (shifted)
 *    takes, inner-fold predictions of the same recipe.
 */
import { EMOTIONS, type Emotion } from '../../src/api/contract';
import {
  classifyEmotion,
  type EmotionModelFile,
  FEATURE_NAMES,
  normalizeFeatures,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../src/audio/analysis';
import { headLogits, softmax } from '../../src/audio/analysis/emotion-heads';
import type { HeadSet } from '../../src/audio/analysis/emotion-model-schema';
import { type TrainOptions, trainHead, trainSoftHead } from './softmax-model';

export const CLASSES: Emotion[] = [...EMOTIONS];

/** Training target of the arousal head (probability of "aroused") and the weight of the class in it. */
const AROUSAL_TARGET: Record<Emotion, [number, number]> = {
  anger: [1, 1],
  fear: [1, 1],
  happiness: [1, 1],
  sadness: [0, 1],
  boredom: [0, 1],
  neutral: [0, 1],
  disgust: [0.5, 0.5],
};
/** Training target of the valence head (probability of "positive") and its weight. */
const VALENCE_TARGET: Record<Emotion, [number, number]> = {
  happiness: [1, 1],
  neutral: [0.5, 0.5],
  boredom: [0.3, 0.5],
  anger: [0, 1],
  fear: [0, 1],
  disgust: [0, 1],
  sadness: [0, 1],
};

/** Feature groups that identify the voice or the channel more than the emotion. */
export const VOICE_GROUPS: Record<string, (name: string) => boolean> = {
  pitchLevel: (n) => /^f0st_(mean|p20|p50|p80|p05|p95)$/.test(n),
  formants: (n) => /^f[123]_v_(mean|std)$/.test(n),
  mfccMeans: (n) => /^mfcc\d+_(v|uv)_mean$/.test(n),
  spectralLevels: (n) => /^(alpha|hammarberg|slope0500|slope5001500|centroid)_(v|uv)_mean$/.test(n),
};

export interface RecipeOptions {
  /** VOICE_GROUPS the cold heads leave out. */
  coldExclude: string[];
  /** VOICE_GROUPS the speaker heads leave out. */
  speakerExclude: string[];
  /** Augmented copies per training take that enter training (0 = clean only). */
  variants: number;
  /**
   * Of those, how many the speaker heads train on. Speaker normalisation already takes out what a
   * learner's voice and microphone do to every take alike; shifted copies mostly blur the heads.
   */
  speakerVariants: number;
  train: TrainOptions;
  /** Inner speaker groups for fitting the temperature (0 = no calibration, T = 1). */
  calibrationGroups: number;
  speakerPrior: number;
  blendTakes: number;
}

export const DEFAULT_RECIPE: RecipeOptions = {
  coldExclude: ['pitchLevel', 'formants', 'mfccMeans'],
  speakerExclude: [],
  variants: 3,
  speakerVariants: 0,
  train: { hidden: [], l2: 0.03, epochs: 100, learningRate: 0.03, seed: 7 },
  calibrationGroups: 2,
  speakerPrior: 2,
  blendTakes: 3,
};

/** One training take: its speaker, emotion and features clean (variant 0) and shifted (1..k). */
export interface TrainTake {
  speaker: string;
  emotion: Emotion;
  variants: Float64Array[];
}

export function inputsFor(exclude: string[]): string[] {
  return FEATURE_NAMES.filter((n) => !exclude.some((g) => VOICE_GROUPS[g](n)));
}

/** Running statistics (as the service keeps them) of a set of feature rows. */
export function statsOf(rows: Float64Array[]): SpeakerStats {
  let s: SpeakerStats | null = null;
  for (const r of rows) s = updateSpeakerStats(s, r);
  if (!s) throw new Error('no rows');
  return s;
}

/** Statistics of a set with one member removed (Welford in reverse). */
export function withoutTake(s: SpeakerStats, x: Float64Array): SpeakerStats {
  const n = s.count - 1;
  const mean = s.mean.map((m, i) => (s.count * m - x[i]) / n);
  const m2 = s.m2.map((v, i) => Math.max(0, v - (x[i] - s.mean[i]) * (x[i] - mean[i])));
  return { count: n, mean, m2 };
}

interface Rows {
  /** Normalised inputs per row, for the cold heads. */
  cold: Float64Array[];
  emotion: Emotion[];
  /** Normalised inputs for the speaker heads (variants up to speakerVariants) and their emotions. */
  speaker: Float64Array[];
  speakerEmotion: Emotion[];
}

function emptyHeadSet(inputs: string[]): HeadSet {
  const none = { layers: [] };
  return { inputs, category: none, arousal: none, valence: none, temperature: 1 };
}

function baseModel(train: TrainTake[], opt: RecipeOptions): EmotionModelFile {
  const rows = train.flatMap((t) => t.variants.slice(0, opt.variants + 1));
  const all = statsOf(rows);
  return {
    format: 'emotion-model/2',
    trained: true,
    classes: CLASSES,
    featureNames: [...FEATURE_NAMES],
    globalMean: all.mean,
    globalStd: all.m2.map((v) => Math.sqrt(v / all.count) || 1),
    speakerPrior: opt.speakerPrior,
    blendTakes: opt.blendTakes,
    cold: emptyHeadSet(inputsFor(opt.coldExclude)),
    speaker: emptyHeadSet(inputsFor(opt.speakerExclude)),
    labelThreshold: 1,
    arousalGoal: Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>,
    provenance: {},
    evaluation: {},
  };
}

/**
 * Rows normalised for a model: cold with the global moments; speaker-normalised with the moments
 * of the same speaker's OTHER takes in the same variant (a learner keeps one voice and microphone).
 */
function normalisedRows(
  takes: TrainTake[],
  model: EmotionModelFile,
  variants: number,
  speakerVariants: number,
): Rows {
  const out: Rows = { cold: [], emotion: [], speaker: [], speakerEmotion: [] };
  for (let v = 0; v <= variants; v++) {
    const bySpeaker = new Map<string, SpeakerStats>();
    for (const s of new Set(takes.map((t) => t.speaker)))
      bySpeaker.set(s, statsOf(takes.filter((t) => t.speaker === s).map((t) => t.variants[v])));
    for (const t of takes) {
      const x = t.variants[v];
      out.cold.push(normalizeFeatures(x, null, model, model.cold));
      out.emotion.push(t.emotion);
      if (v > speakerVariants) continue;
      const others = withoutTake(bySpeaker.get(t.speaker) as SpeakerStats, x);
      out.speaker.push(normalizeFeatures(x, others, model, model.speaker));
      out.speakerEmotion.push(t.emotion);
    }
  }
  return out;
}

function binaryHead(
  z: Float64Array[],
  emotions: Emotion[],
  target: Record<Emotion, [number, number]>,
  opt: TrainOptions,
) {
  const counts = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  for (const e of emotions) counts[e]++;
  const targets = emotions.map((e) => Float64Array.from([1 - target[e][0], target[e][0]]));
  // Every class weighs the same in total (times its own weight in the target table).
  const weights = emotions.map((e) => (target[e][1] * emotions.length) / (CLASSES.length * counts[e]));
  return trainSoftHead(z, targets, weights, opt);
}

function fitHeads(set: HeadSet, z: Float64Array[], emotions: Emotion[], opt: TrainOptions): void {
  const y = emotions.map((e) => CLASSES.indexOf(e));
  set.category = trainHead(z, y, CLASSES.length, opt);
  set.arousal = binaryHead(z, emotions, AROUSAL_TARGET, opt);
  set.valence = binaryHead(z, emotions, VALENCE_TARGET, opt);
}

/** Temperature minimising the negative log-likelihood of held-out logits (golden-section on log T). */
export function fitTemperature(logits: Float64Array[], truth: number[]): number {
  const nll = (logT: number) => {
    const T = Math.exp(logT);
    let s = 0;
    logits.forEach((l, r) => {
      let max = Number.NEGATIVE_INFINITY;
      for (const v of l) max = Math.max(max, v / T);
      let sum = 0;
      for (const v of l) sum += Math.exp(v / T - max);
      s -= l[truth[r]] / T - max - Math.log(sum);
    });
    return s;
  };
  let a = Math.log(0.25);
  let b = Math.log(8);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const c = b - g * (b - a);
    const d = a + g * (b - a);
    if (nll(c) < nll(d)) b = d;
    else a = c;
  }
  return Math.exp((a + b) / 2);
}

function fitUncalibrated(train: TrainTake[], opt: RecipeOptions): EmotionModelFile {
  const model = baseModel(train, opt);
  const rows = normalisedRows(train, model, opt.variants, opt.speakerVariants);
  fitHeads(model.cold, rows.cold, rows.emotion, opt.train);
  fitHeads(model.speaker, rows.speaker, rows.speakerEmotion, opt.train);
  model.arousalGoal = arousalByClass(model, rows);
  return model;
}

/** Mean cold arousal reading per class over rows (held-out rows when calibrating). */
function arousalByClass(model: EmotionModelFile, rows: Rows): Record<Emotion, number> {
  const sum = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const n = { ...sum };
  rows.cold.forEach((z, r) => {
    sum[rows.emotion[r]] += 2 * softmax(headLogits(model.cold.arousal, z))[1] - 1;
    n[rows.emotion[r]]++;
  });
  return Object.fromEntries(CLASSES.map((c) => [c, n[c] ? sum[c] / n[c] : 0])) as Record<Emotion, number>;
}

/** Fits the recipe on training takes (all their variants up to opt.variants). */
export function fitRecipe(train: TrainTake[], opt: RecipeOptions = DEFAULT_RECIPE): EmotionModelFile {
  const model = fitUncalibrated(train, opt);
  if (opt.calibrationGroups < 2) return model;
  // Inner folds over training speakers: held-out logits of both head sets, then one temperature each.
  const speakers = [...new Set(train.map((t) => t.speaker))].sort();
  const cold: Float64Array[] = [];
  const spk: Float64Array[] = [];
  const truth: number[] = [];
  const spkTruth: number[] = [];
  const arousalSum = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const arousalN = { ...arousalSum };
  for (let g = 0; g < opt.calibrationGroups; g++) {
    const held = new Set(speakers.filter((_, i) => i % opt.calibrationGroups === g));
    const inner = fitUncalibrated(
      train.filter((t) => !held.has(t.speaker)),
      { ...opt, calibrationGroups: 0 },
    );
    const rows = normalisedRows(
      train.filter((t) => held.has(t.speaker)),
      inner,
      opt.variants,
      opt.variants,
    );
    rows.cold.forEach((z, r) => {
      cold.push(headLogits(inner.cold.category, z));
      truth.push(CLASSES.indexOf(rows.emotion[r]));
    });
    rows.speaker.forEach((z, r) => {
      spk.push(headLogits(inner.speaker.category, z));
      spkTruth.push(CLASSES.indexOf(rows.speakerEmotion[r]));
    });
    const goals = arousalByClass(inner, rows);
    for (const c of CLASSES) {
      const k = rows.emotion.filter((e) => e === c).length;
      arousalSum[c] += goals[c] * k;
      arousalN[c] += k;
    }
  }
  model.cold.temperature = fitTemperature(cold, truth);
  model.speaker.temperature = fitTemperature(spk, spkTruth);
  model.arousalGoal = Object.fromEntries(
    CLASSES.map((c) => [c, arousalN[c] ? arousalSum[c] / arousalN[c] : model.arousalGoal[c]]),
  ) as Record<Emotion, number>;
  return model;
}

/** The shipped classifier with a given model (for evaluation of fold models). */
export const readWith = (model: EmotionModelFile) => (x: Float64Array, stats: SpeakerStats | null) =>
  classifyEmotion(x, stats, model);
