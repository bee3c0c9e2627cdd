/**
 * The English check's models (model.json, written by `npm run train:words`, scripts/words/train-en.ts):
 * ordinary least squares on speechocean762's experts for the sentence scores and each word's accuracy,
 * and a linear "is this the line" score with its threshold. All chosen by speaker-grouped
 * cross-validation; the figures they reach are in docs/words.md.
 */
import { z } from 'zod';
import modelJson from './model.json';

export const linearModel = z.object({
  features: z.array(z.string()),
  weights: z.array(z.number()),
  intercept: z.number(),
});
export type LinearModel = z.infer<typeof linearModel>;

export const englishModel = z.object({
  provenance: z.record(z.string(), z.unknown()),
  sentence: z.object({ accuracy: linearModel, fluency: linearModel, total: linearModel }),
  word: linearModel,
  /** A said word whose predicted accuracy is below this is marked off. */
  offBelow: z.number(),
  /**
   * The take is another line when this model's value is below its threshold, unless it reads as the
   * line cut short (verdict.ts readsCutShort): at most `after` of the take's speech follows the path's
   * last word and the `cutShort` model (a take cut short against another line, on the path's figures
   * and `prefix`, the line value as if the path's words were the whole line) reaches its threshold.
   */
  line: linearModel.extend({
    threshold: z.number(),
    cutShort: linearModel.extend({ after: z.number(), threshold: z.number() }),
  }),
});
export type EnglishModel = z.infer<typeof englishModel>;

export const ENGLISH_MODEL: EnglishModel = englishModel.parse(modelJson);

export function predict(model: LinearModel, x: Record<string, number>): number {
  let y = model.intercept;
  model.features.forEach((name, i) => {
    y += model.weights[i] * (x[name] ?? 0);
  });
  return y;
}
