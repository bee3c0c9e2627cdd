/**
 * Leave-one-speaker-out evaluation of the shipped recipe on clean EmoDB takes, shared by train.ts
 * and eval.ts (the transfer bench, scripts/eval/transfer, covers shifted takes and other splits).
 *
 * Speaker normalisation in evaluation (see EmotionModelFile.speakerPrior / blendTakes):
 *  - "normalised": each test take is classified with statistics from all OTHER takes of the same
 *    speaker (n = takes - 1, about 35-70 in EmoDB): a learner with a history. Never the take itself.
 *  - "online": the test speaker's takes in a fixed pseudo-random order (seeded); each take is
 *    classified with the statistics of the takes before it (0 for the first), exactly as the
 *    service accumulates them; the figure therefore includes the cold first takes.
 *  - "cold": no statistics at all (global normalisation from the training speakers).
 * The model used for a test speaker never saw that speaker (its global moments and augmentation
 * variants included).
 */
import type { Emotion } from '../../src/api/contract';
import {
  classifyEmotion,
  type EmotionEstimate,
  type EmotionModelFile,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../src/audio/analysis';
import {
  CLASSES,
  DEFAULT_RECIPE,
  fitRecipe,
  type RecipeOptions,
  type TrainTake,
  statsOf,
  withoutTake,
} from './recipe';
import { seededOrder } from '../lib/seeded';

export interface Sample extends TrainTake {
  file: string;
  text: string;
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
  /** Every take's cold reading by the model that did not hear its speaker (for thresholds). */
  coldReadings: Array<{ emotion: Emotion; reading: EmotionEstimate }>;
}

export function evaluateLoso(
  samples: Sample[],
  opt: RecipeOptions = DEFAULT_RECIPE,
  log = false,
  models?: Map<string, EmotionModelFile>,
): LosoResult {
  const normalised = new Tally();
  const online = new Tally();
  const cold = new Tally();
  const perSpeakerUar: LosoResult['perSpeakerUar'] = {};
  const arousalSum = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const arousalN = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<Emotion, number>;
  const coldReadings: LosoResult['coldReadings'] = [];
  const speakers = [...new Set(samples.map((s) => s.speaker))].sort();
  for (const spk of speakers) {
    const model = fitRecipe(
      samples.filter((s) => s.speaker !== spk),
      opt,
    );
    models?.set(spk, model);
    const test = samples.filter((s) => s.speaker === spk);
    const clean = (s: Sample) => s.variants[0];
    const full = statsOf(test.map(clean));
    const n1 = new Tally();
    const c1 = new Tally();
    for (const s of test) {
      const pn = classifyEmotion(clean(s), withoutTake(full, clean(s)), model);
      normalised.add(s.emotion, pn.detected);
      n1.add(s.emotion, pn.detected);
      arousalSum[s.emotion] += pn.arousal;
      arousalN[s.emotion]++;
      const pc = classifyEmotion(clean(s), null, model);
      cold.add(s.emotion, pc.detected);
      c1.add(s.emotion, pc.detected);
      coldReadings.push({ emotion: s.emotion, reading: pc });
    }
    let stats: SpeakerStats | null = null;
    for (const s of seededOrder(test, Number(spk) * 7919)) {
      online.add(s.emotion, classifyEmotion(clean(s), stats, model).detected);
      stats = updateSpeakerStats(stats, clean(s));
    }
    perSpeakerUar[spk] = { normalised: n1.result().uar, cold: c1.result().uar };
    if (log)
      console.error(
        `speaker ${spk}: normalised UAR ${(100 * n1.result().uar).toFixed(1)} %, cold ${(100 * c1.result().uar).toFixed(1)} %`,
      );
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
    coldReadings,
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
