import type { Emotion } from '../../api/contract';

/** One dense layer: out = act(W x + b), W row-major [out][in]. */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  weights: number[];
  bias: number[];
  activation: 'relu' | 'linear';
}

/** A classifier head: dense layers ending in logits (softmax applied by the caller). */
export interface ModelHead {
  layers: DenseLayer[];
}

/** Shape of emotion-model.json (written by scripts/emotion/train.ts). */
export interface EmotionModelFile {
  format: 'emotion-model/1';
  trained: boolean;
  classes: Emotion[];
  featureNames: string[];
  /** Training-set (global) mean and standard deviation per feature: the cold-start normalisation. */
  globalMean: number[];
  globalStd: number[];
  /**
   * Speaker normalisation: z = (x - mu) / sd with mu, sd the speaker's running moments shrunk toward
   * the global ones with the weight of `speakerPrior` pseudo-takes.
   */
  speakerPrior: number;
  /** Probabilities = (1 - l) * cold + l * speaker, l = n / (n + blendTakes), n = speaker's takes. */
  blendTakes: number;
  /** Head used with global (cold) normalisation and head used with speaker normalisation. */
  cold: ModelHead;
  speaker: ModelHead;
  /** Circumplex position of each class; arousal/valence = probability-weighted mean. */
  arousalValence: Record<Emotion, [number, number]>;
  provenance: Record<string, string>;
  evaluation: Record<string, unknown>;
}
