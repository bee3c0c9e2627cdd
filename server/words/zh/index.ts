/**
 * The Mandarin word check (docs/words.md, "Mandarin"): which characters of the line a take said, when, the share
 * said, and whether it is another line or no words at all. Off the event loop (pool.ts); answers
 * `engine_missing` when the runtime or the model cannot load (status.ts says which, for the start-up line).
 */
import type { WordCheck } from '../../../src/api/contract';
import type { WordCheckInput } from '../input';
import { checkMandarinOffLoop } from './pool';
import { mandarinWordCheckStatus } from './status';

export { closeMandarinPool } from './pool';
export { mandarinWordCheckStatus } from './status';

export async function checkMandarin(input: WordCheckInput): Promise<WordCheck> {
  if (!mandarinWordCheckStatus().ready)
    return { status: 'unchecked', reason: 'engine_missing', language: 'zh' };
  return checkMandarinOffLoop({ samples: input.samples, sampleRate: input.sampleRate, text: input.text });
}
