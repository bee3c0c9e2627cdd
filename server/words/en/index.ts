// Placeholder until the English engine lands (server/words/index.ts): says plainly it did not check.
import type { WordCheck } from '../../../src/api/contract';
import type { WordCheckInput } from '../input';

export async function checkEnglish(_input: WordCheckInput): Promise<WordCheck> {
  return { status: 'unchecked', reason: 'engine_missing', language: 'en' };
}
