/**
 * The transfer bench's engine: for a recipe and a split, fit one model per fold on the training
 * takes (clean plus their augmentation variants), read every held-out take under every condition
 * (cold, and speaker-normalised with the statistics of the same speaker's other takes under the same
 * condition), then compute the figures per condition.
 */
import type { Emotion } from '../../../src/api/contract';
import type { EmotionEstimate, SpeakerStats } from '../../../src/audio/analysis';
import type { TrainTake } from '../../emotion/recipe';
import { statsOf, withoutTake } from '../../emotion/recipe';
import { argmaxOf, auc, expectedCalibrationError, uar } from './metrics';
import type { BenchTake, Split } from './splits';

export interface Take extends BenchTake {
  emotion: Emotion;
}

export type MatchTarget =
  | { kind: 'annotated'; emotion: Emotion }
  | { kind: 'actor'; reading: EmotionEstimate };

export interface Reader {
  /** The recipe's own view of a full feature vector (the previous model reads 106 of them). */
  project(x: Float64Array): Float64Array;
  read(x: Float64Array, stats: SpeakerStats | null): EmotionEstimate;
  /** The emotion-match score (0–100) the recipe's scoring gives a learner against a target. */
  match(learner: EmotionEstimate, target: MatchTarget): number;
}

export interface Recipe {
  id: string;
  label: string;
  fit(train: TrainTake[]): Reader;
}

export interface Reading {
  cold: EmotionEstimate;
  normalised: EmotionEstimate;
  /** The fold model's scoring, for match pairs whose learner is this take. */
  match: Reader['match'];
}

/** Features per condition id, per file. */
export type FeatureTable = Map<string, Map<string, Float64Array>>;

export const FOUR: Emotion[] = ['anger', 'happiness', 'sadness', 'neutral'];
export const SEVEN: Emotion[] = ['anger', 'boredom', 'disgust', 'fear', 'happiness', 'sadness', 'neutral'];
const HIGH = new Set<Emotion>(['anger', 'happiness', 'fear']);
const LOW = new Set<Emotion>(['sadness', 'neutral']);

/** Readings of every take under every condition, each by the model of the fold that held it out. */
export function readSplit(
  recipe: Recipe,
  split: Split,
  takes: Take[],
  features: FeatureTable,
  conditions: string[],
  variants: number,
  log: (s: string) => void,
): Map<string, Map<string, Reading>> {
  const out = new Map(conditions.map((c) => [c, new Map<string, Reading>()]));
  const clean = features.get('clean') as Map<string, Float64Array>;
  const augs = Array.from(
    { length: variants },
    (_, k) => features.get(`aug${k + 1}`) as Map<string, Float64Array>,
  );
  for (const fold of split.folds(takes)) {
    const t0 = Date.now();
    const train: TrainTake[] = takes.filter(fold.train).map((t) => ({
      speaker: t.speaker,
      emotion: t.emotion,
      variants: [clean, ...augs].map((m) => m.get(t.file) as Float64Array),
    }));
    const reader = recipe.fit(train);
    const test = takes.filter(fold.test);
    for (const c of conditions) {
      const table = features.get(c) as Map<string, Float64Array>;
      const xs = new Map(test.map((t) => [t.file, reader.project(table.get(t.file) as Float64Array)]));
      const bySpeaker = new Map<string, SpeakerStats>();
      for (const s of new Set(test.map((t) => t.speaker)))
        bySpeaker.set(
          s,
          statsOf(test.filter((t) => t.speaker === s).map((t) => xs.get(t.file) as Float64Array)),
        );
      for (const t of test) {
        const x = xs.get(t.file) as Float64Array;
        const stats = bySpeaker.get(t.speaker) as SpeakerStats;
        out.get(c)?.set(t.file, {
          cold: reader.read(x, null),
          normalised: reader.read(x, stats.count > 1 ? withoutTake(stats, x) : null),
          match: reader.match,
        });
      }
    }
    log(
      `  ${recipe.id} ${split.id} ${fold.name}: ${train.length} training takes, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  return out;
}

export interface Figures {
  uar4Cold: number;
  uar7Cold: number;
  uar4Norm: number;
  uar7Norm: number;
  arousalCold: number;
  arousalNorm: number;
  matchAnnotated: number;
  matchActor: number;
  ece: number;
  flip: number;
}

export const FIGURE_LABELS: Record<keyof Figures, string> = {
  uar4Cold: '4-class UAR, cold',
  uar7Cold: '7-class UAR, cold',
  uar4Norm: '4-class UAR, speaker-normalised',
  uar7Norm: '7-class UAR, speaker-normalised',
  arousalCold: 'arousal AUC, cold',
  arousalNorm: 'arousal AUC, speaker-normalised',
  matchAnnotated: 'match AUC, target annotated',
  matchActor: "match AUC, target = actor's take",
  ece: 'calibration error (ECE, cold, 7 classes)',
  flip: 'top class changed vs clean (cold)',
};

/** Figures of one condition's readings. Match pairs: same sentence, different speakers; actor clean. */
export function figures(
  takes: Take[],
  readings: Map<string, Reading>,
  cleanReadings: Map<string, Reading>,
): Figures {
  const r = (t: Take) => readings.get(t.file) as Reading;
  const cold = takes.map((t) => ({ truth: t.emotion, p: r(t).cold }));
  const norm = takes.map((t) => ({ truth: t.emotion, p: r(t).normalised }));
  const arousal = (rows: typeof cold) =>
    auc(
      rows
        .filter((x) => HIGH.has(x.truth) || LOW.has(x.truth))
        .map((x) => ({ score: x.p.arousal, positive: HIGH.has(x.truth) })),
    );
  const ann: Array<{ score: number; positive: boolean }> = [];
  const act: Array<{ score: number; positive: boolean }> = [];
  for (const actor of takes) {
    const a = (cleanReadings.get(actor.file) as Reading).cold;
    for (const take of takes) {
      if (take.text !== actor.text || take.speaker === actor.speaker) continue;
      const { cold: learner, match } = r(take);
      const positive = take.emotion === actor.emotion;
      ann.push({ score: match(learner, { kind: 'annotated', emotion: actor.emotion }), positive });
      act.push({ score: match(learner, { kind: 'actor', reading: a }), positive });
    }
  }
  const top = (p: EmotionEstimate) => p.probabilities[p.detected];
  return {
    uar4Cold: uar(
      cold.map((x) => ({ truth: x.truth, predicted: argmaxOf(x.p.probabilities, FOUR) })),
      FOUR,
    ),
    uar7Cold: uar(
      cold.map((x) => ({ truth: x.truth, predicted: x.p.detected })),
      SEVEN,
    ),
    uar4Norm: uar(
      norm.map((x) => ({ truth: x.truth, predicted: argmaxOf(x.p.probabilities, FOUR) })),
      FOUR,
    ),
    uar7Norm: uar(
      norm.map((x) => ({ truth: x.truth, predicted: x.p.detected })),
      SEVEN,
    ),
    arousalCold: arousal(cold),
    arousalNorm: arousal(norm),
    matchAnnotated: auc(ann),
    matchActor: auc(act),
    ece: expectedCalibrationError(
      cold.map((x) => ({ confidence: top(x.p), correct: x.p.detected === x.truth })),
    ),
    flip:
      takes.filter((t) => r(t).cold.detected !== (cleanReadings.get(t.file) as Reading).cold.detected)
        .length / takes.length,
  };
}
