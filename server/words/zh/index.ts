// Placeholder until the Mandarin engine lands (server/words/index.ts): says plainly it did not check.
import type { WordCheck } from '../../../src/api/contract';
import type { WordCheckInput } from '..';

export async function checkMandarin(_input: WordCheckInput): Promise<WordCheck> {
  return { status: 'unchecked', reason: 'engine_missing', language: 'zh' };
}
