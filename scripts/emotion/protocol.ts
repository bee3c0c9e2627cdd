/**
 * Fitting and leave-one-speaker-out evaluation, shared by train.ts and eval.ts.
 *
 * Speaker normalisation in evaluation (see EmotionModelFile.speakerPrior / blendTakes):
 *  - "normalised": each test take is classified with statistics from all OTHER takes of the same
 *    speaker (n = takes - 1, about 35-70 in EmoDB): a learner with a history. Never the take itself.
 *  - "online": the test speaker's takes in a fixed pseudo-random order (seeded); each take is
 *    classified with the statistics of the takes before it (0 for the first), exactly as the
 *    service accumulates them; the figure therefore includes the cold first takes.
 *  - "cold": no statistics at all (global normalisation from the training speakers).
 * The model used for a test speaker never saw that speaker (its global moments included).
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
import type { Sample } from './dataset';
import { DEFAULT_TRAIN, type TrainOptions, trainHead } from './softmax-model';

export const CLASSES: Emotion[] = [...EMOTIONS];

/** Circumplex positions (arousal, valence) after Russell (1980) and the EmoDB literature. */
export const AROUSAL_VALENCE: Record<Emotion, [number, number]> = {
  anger: [0.8, -0.6],
  boredom: [-0.7, -0.3],
  disgust: [0.2, -0.7],
  fear: [0.7, -0.7],
  happiness: [0.6, 0.8],
  sadness: [-0.6, -0.7],
  neutral: [0, 0],
};

export interface FitOptions {
  train: TrainOptions;
  speakerPrior: number;
  blendTakes: number;
}

export const DEFAULT_FIT: FitOptions = { train: DEFAULT_TRAIN, speakerPrior: 2, blendTakes: 3 };

function statsOf(rows: Float64Array[]): SpeakerStats {
  let s: SpeakerStats | null = null;
  for (const r of rows) s = updateSpeakerStats(s, r);
  if (!s) throw new Error('no rows');
  return s;
}

/** Statistics of a set with one member x removed (Welford in reverse). */
function without(s: SpeakerStats, x: Float64Array): SpeakerStats {
  const n = s.count - 1;
  const mean = s.mean.map((m, i) => (s.count * m - x[i]) / n);
  const m2 = s.m2.map((v, i) => Math.max(0, v - (x[i] - s.mean[i]) * (x[i] - mean[i])));
  return { count: n, mean, m2 };
}

export function fitModel(train: Sample[], opt: FitOptions = DEFAULT_FIT): EmotionModelFile {
  const d = FEATURE_NAMES.length;
  const all = statsOf(train.map((s) => s.features));
  const globalMean = all.mean;
  const globalStd = all.m2.map((v) => Math.sqrt(v / all.count) || 1);
  const base: EmotionModelFile = {
    format: 'emotion-model/1',
    trained: true,
    classes: CLASSES,
    featureNames: [...FEATURE_NAMES],
    globalMean,
    globalStd,
    speakerPrior: opt.speakerPrior,
    blendTakes: opt.blendTakes,
    cold: { layers: [] },
    speaker: { layers: [] },
    arousalValence: AROUSAL_VALENCE,
    provenance: {},
    evaluation: {},
  };
  const y = train.map((s) => CLASSES.indexOf(s.emotion));
  const cold = train.map((s) => {
    const z = new Float64Array(d);
    normalizeFeatures(s.features, null, base, z);
    return z;
  });
  // Speaker head: each training take normalised by its speaker's other takes (as in use).
  const bySpeaker = new Map<string, SpeakerStats>();
  for (const spk of new Set(train.map((s) => s.speaker))) {
    bySpeaker.set(spk, statsOf(train.filter((s) => s.speaker === spk).map((s) => s.features)));
  }
  const spk = train.map((s) => {
    const z = new Float64Array(d);
    normalizeFeatures(s.features, without(bySpeaker.get(s.speaker)!, s.features), base, z);
    return z;
  });
  base.cold = trainHead(cold, y, CLASSES.length, opt.train);
  base.speaker = trainHead(spk, y, CLASSES.length, opt.train);
  return base;
}

export interface ConditionResult {
  uar: number;
  recall: Record<Emotion, number>;
  /** confusion[true][predicted] counts, CLASSES order. */
  confusion: number[][];
  accuracy: number;
}

class Tally {
  confusion = CLASSES.map(() => CLASSES.map(() => 0));
  add(truth: Emotion, predicted: Emotion): void {
    this.confusion[CLASSES.indexOf(truth)][CLASSES.indexOf(predicted)]++;
  }
  result(): ConditionResult {
    const recall = {} as Record<Emotion, number>;
    let sum = 0;
    let correct = 0;
    let total = 0;
    CLASSES.forEach((c, i) => {
      const row = this.confusion[i];
      const n = row.reduce((a, b) => a + b, 0);
      recall[c] = n > 0 ? row[i] / n : 0;
      sum += recall[c];
      correct += row[i];
      total += n;
    });
    return { uar: sum / CLASSES.length, recall, confusion: this.confusion, accuracy: correct / total };
  }
}

export interface LosoResult {
  normalised: ConditionResult;
  online: ConditionResult;
  cold: ConditionResult;
  perSpeakerUar: Record<string, { normalised: number; cold: number }>;
  meanArousalByClass: Record<Emotion, number>;
}

function seededOrder<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function evaluateLoso(samples: Sample[], opt: FitOptions = DEFAULT_FIT, log = false): LosoResult {
  const normalised = new Tally();
  const online = new Tally();
  const cold = new Tally();
  const perSpeakerUar: LosoResult['perSpeakerUar'] = {};
  const arousalSum = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const arousalN = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const speakers = [...new Set(samples.map((s) => s.speaker))].sort();
  for (const spk of speakers) {
    const train = samples.filter((s) => s.speaker !== spk);
    const test = samples.filter((s) => s.speaker === spk);
    const model = fitModel(train, opt);
    const full = statsOf(test.map((s) => s.features));
    const n1 = new Tally();
    const c1 = new Tally();
    for (const s of test) {
      const pn = classifyEmotion(s.features, without(full, s.features), model);
      normalised.add(s.emotion, pn.detected);
      n1.add(s.emotion, pn.detected);
      arousalSum[s.emotion] += pn.arousal;
      arousalN[s.emotion]++;
      const pc = classifyEmotion(s.features, null, model);
      cold.add(s.emotion, pc.detected);
      c1.add(s.emotion, pc.detected);
    }
    let stats: SpeakerStats | null = null;
    for (const s of seededOrder(test, Number(spk) * 7919)) {
      online.add(s.emotion, classifyEmotion(s.features, stats, model).detected);
      stats = updateSpeakerStats(stats, s.features);
    }
    perSpeakerUar[spk] = { normalised: n1.result().uar, cold: c1.result().uar };
    if (log) console.error(`speaker ${spk}: normalised UAR ${(100 * n1.result().uar).toFixed(1)} %`);
  }
  const meanArousalByClass = Object.fromEntries(
    CLASSES.map((c) => [c, arousalN[c] ? arousalSum[c] / arousalN[c] : 0]),
  ) as Record<Emotion, number>;
  return {
    normalised: normalised.result(),
    online: online.result(),
    cold: cold.result(),
    perSpeakerUar,
    meanArousalByClass,
  };
}

export function formatCondition(name: string, r: ConditionResult): string {
  const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
  const lines = [`${name}: LOSO UAR ${pct(r.uar)}  (accuracy ${pct(r.accuracy)})`];
  lines.push(`  per-class recall: ${CLASSES.map((c) => `${c} ${pct(r.recall[c])}`).join(', ')}`);
  const abbr = CLASSES.map((c) => c.slice(0, 5).padStart(6));
  lines.push(`  confusion (rows = truth, columns = predicted):`);
  lines.push(`  ${''.padEnd(10)}${abbr.join('')}`);
  r.confusion.forEach((row, i) => {
    lines.push(`  ${CLASSES[i].padEnd(10)}${row.map((v) => String(v).padStart(6)).join('')}`);
  });
  return lines.join('\n');
}
