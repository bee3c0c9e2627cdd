/**
 * The English word check (docs/words.md): pocketsphinx aligns the line's words to the take and a
 * free phone loop measures how well any phones would have fitted; small linear models fitted on
 * speechocean762's experts turn that into the verdict. At most a few checks run at once; a machine
 * without the engine answers "not checked" and says what to install.
 */
import os from 'node:os';
import pLimit from 'p-limit';
import type { WordCheck } from '../../../src/api/contract';
import type { WordCheckInput } from '../input';
import { alignLine, prepareLine } from './align';
import { type EnglishMeasures, measure, verdict } from './verdict';
import { enginePaths, missingParts } from './sphinx';

export const INSTALL_COMMAND = 'apt-get install pocketsphinx pocketsphinx-en-us';

/**
 * Checks at once: one a core. A check runs two pocketsphinx processes side by side, the grammar pass
 * computing the state scores and the phone loop searching them as they come (a third of the first's
 * CPU), so about one core's work.
 */
export const ENGLISH_CHECKS_AT_ONCE = Math.max(1, os.cpus().length);
/** pocketsphinx processes a check runs at once. */
export const ENGINE_RUNS_PER_CHECK = 2;

/** The checks beyond the bound wait their turn, first come first served. */
const slot = pLimit(ENGLISH_CHECKS_AT_ONCE);

let missingCache: string[] | null = null;

/** Null when the English check can run; else what is missing and the one command that adds it. */
export function englishWordCheckStatus(): { missing: string[]; install: string } | null {
  missingCache ??= missingParts(enginePaths());
  return missingCache.length ? { missing: missingCache, install: INSTALL_COMMAND } : null;
}

/** The start-up line's words about the English check. */
export function englishWordCheckLine(): string {
  const status = englishWordCheckStatus();
  return status
    ? `English word check: off, missing ${status.missing.join(', ')}; add it with: ${status.install}`
    : 'English word check: on (pocketsphinx)';
}

/** What a check measured, for the training script and the bench (kept only as long as the check). */
const measured = new WeakMap<WordCheck, EnglishMeasures>();
export function englishMeasuresOf(check: WordCheck): EnglishMeasures | undefined {
  return measured.get(check);
}

export async function checkEnglish(input: WordCheckInput): Promise<WordCheck> {
  if (englishWordCheckStatus()) return { status: 'unchecked', reason: 'engine_missing', language: 'en' };
  const line = prepareLine(input.text);
  if (line.tokens.length === 0) return { status: 'unchecked', reason: 'no_text', language: 'en' };
  // A failed run (killed after its bound, or crashed) rejects: the scoring path logs it and keeps the
  // take's delivery score, saying its words were not checked (server/ai/take-words.ts, engine_failed).
  return slot(async () => {
    const alignment = await alignLine(input.samples, input.sampleRate, line);
    const m = measure(alignment);
    const check = verdict(alignment, m);
    measured.set(check, m);
    return check;
  });
}
