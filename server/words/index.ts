/**
 * The word check of one take (docs/words.md): which words of its line were heard. English runs
 * pocketsphinx (server/words/en), Mandarin a keyword-spotting model (server/words/zh); any other
 * language is answered "not checked" so nothing pretends otherwise.
 */
import type { WordCheck } from '../../src/api/contract';
import { checkEnglish, englishWordCheckLine } from './en';
import type { WordCheckInput } from './input';
import { checkMandarin, closeMandarinPool, mandarinWordCheckStatus } from './zh';

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

/**
 * One line per engine for the start-up log: on, or what is missing and the one command that adds it,
 * so a server without an engine says so instead of scoring every take as "not checked" in silence.
 */
export function wordCheckStatusLines(): string[] {
  return [englishWordCheckLine(), mandarinWordCheckStatus().text];
}

/** Ends the Mandarin check's worker threads (the English check runs child processes per take). */
export async function closeWordChecks(): Promise<void> {
  await closeMandarinPool();
}
