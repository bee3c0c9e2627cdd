/**
 * EmoDB takes with their utterance features, clean and in the recipe's augmentation variants, for
 * training and evaluation. Features come from the transfer bench's cache (scripts/.cache/transfer,
 * extracted on first use; see scripts/eval/transfer/features.ts).
 */
import { ensureConditions, loadCondition } from '../eval/transfer/features';
import { loadEmoDbIndex } from '../lib/emodb';
import type { Sample } from './protocol';

export async function loadSamples(variants: number): Promise<Sample[]> {
  const ids = ['clean', ...Array.from({ length: variants }, (_, k) => `aug${k + 1}`)];
  await ensureConditions(ids);
  const tables = ids.map(loadCondition);
  return loadEmoDbIndex().map((e) => ({
    file: e.file,
    speaker: e.speaker,
    text: e.text,
    emotion: e.emotion,
    variants: tables.map((t) => t.get(e.file) as Float64Array),
  }));
}
