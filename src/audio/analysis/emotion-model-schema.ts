import type { Emotion } from '../../api/contract';

/** One dense layer: out = act(W x + b), W row-major [out][in]. */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  weights: number[];
  bias: number[];
  activation: 'relu' | 'linear';
}

/** A head: dense layers ending in logits (softmax applied by the caller). */
export interface ModelHead {
  layers: DenseLayer[];
}

/**
 * The heads that read one normalisation of the features. Category, arousal and valence each have
 * their own head: arousal carries across voices and languages far better than the category, so it
 * is learned directly rather than derived from the class probabilities.
 */
export interface HeadSet {
  /** Names of the features this set reads, in the order its heads expect (a subset of featureNames). */
  inputs: string[];
  /** Logits over `classes`. */
  category: ModelHead;
  /** Two logits, [calm, aroused]: anger, fear, happiness against sadness, boredom, neutral. */
  arousal: ModelHead;
  /** Two logits, [negative, positive]: happiness against the negative classes, neutral between. */
  valence: ModelHead;
  /** Category logits are divided by this before the softmax (fitted on held-out speakers' takes). */
  temperature: number;
}

/**
 * When the category may be named to a learner (scripts/emotion/naming.ts decides it on EmoDB's
 * held-out speakers, clean and shifted; an out-of-domain check may only withhold classes).
 */
export interface EmotionNaming {
  /** The learner's own takes before `baseline` applies instead of `cold`. */
  baselineTakes: number;
  /** Per class, the calibrated top probability at or above which it is named; absent: never named. */
  cold: Partial<Record<Emotion, number>>;
  baseline: Partial<Record<Emotion, number>>;
  /** Classes never named: under the product's precision on speech in another language. */
  withheld: Emotion[];
  /** Whether the calibrated percentage is shown beside a named class. */
  showPercentage: boolean;
}

/** Shape of emotion-model.json (written by scripts/emotion/train.ts). */
export interface EmotionModelFile {
  format: 'emotion-model/2';
  trained: boolean;
  classes: Emotion[];
  /** The analysis's feature names when the model was trained (must equal FEATURE_NAMES). */
  featureNames: string[];
  /** Training-set (global) mean and standard deviation per feature: the cold-start normalisation. */
  globalMean: number[];
  globalStd: number[];
  /**
   * Speaker normalisation: z = (x - mu) / sd with mu, sd the speaker's running moments shrunk toward
   * the global ones with the weight of `speakerPrior` pseudo-takes.
   */
  speakerPrior: number;
  /** Outputs = (1 - l) * cold + l * speaker, l = n / (n + blendTakes), n = speaker's takes. */
  blendTakes: number;
  /** Heads on globally normalised features (a first take) and on speaker-normalised ones. */
  cold: HeadSet;
  speaker: HeadSet;
  /**
   * Calibrated top-class probability at or above which the category may be named to a learner;
   * below it the result says no clear emotion was heard.
   */
  labelThreshold: number;
  /** When a category is named (absent in older files: none is). */
  naming?: EmotionNaming;
  /**
   * Mean arousal-head reading (cold) of held-out speakers' takes of each class: where a take of an
   * annotated emotion should land on this model's arousal scale.
   */
  arousalGoal: Record<Emotion, number>;
  provenance: Record<string, string>;
  evaluation: Record<string, unknown>;
}
