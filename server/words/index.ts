/**
 * The word check of one take (docs/words.md): which words of its line were heard. English runs
 * pocketsphinx (server/words/en), Mandarin a keyword-spotting model (server/words/zh); any other
 * language is answered "not checked" so nothing pretends otherwise.
 */
import type { WordCheck } from '../../src/api/contract';
import { checkEnglish } from './en';
import type { WordCheckInput } from './input';
import { checkMandarin } from './zh';

export type { WordCheckInput } from './input';

export function primaryLanguage(language: string | null): string | null {
  return language ? language.toLowerCase().split(/[-_]/)[0] : null;
}

export async function checkWords(input: WordCheckInput): Promise<WordCheck> {
  const language = primaryLanguage(input.language);
  if (!/[\p{L}\p{N}]/u.test(input.text)) return { status: 'unchecked', reason: 'no_text', language };
  if (language === 'en') return checkEnglish(input);
  if (language === 'zh') return checkMandarin(input);
  return { status: 'unchecked', reason: 'language', language };
}
