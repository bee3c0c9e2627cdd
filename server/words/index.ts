/**
 * The word check of one take (docs/words.md): which words of its line were heard. English runs
 * pocketsphinx (server/words/en), Mandarin a keyword-spotting model (server/words/zh); any other
 * language is answered "not checked" so nothing pretends otherwise.
 */
import type { FilmWordsNotChecked, WordCheck } from '../../src/api/contract';
import { checkEnglish, englishWordCheckLine, englishWordCheckStatus } from './en';
import type { WordCheckInput } from './input';
import { checkMandarin, closeMandarinPool, mandarinWordCheckStatus } from './zh';

export type { WordCheckInput } from './input';

export function primaryLanguage(language: string | null): string | null {
  return language ? language.toLowerCase().split(/[-_]/)[0] : null;
}

/**
 * Why no take of lines in `language` will have its words checked on this server (a language without a
 * model, or its engine missing here), or null when they will: what the dub page tells the learner
 * before a first take, and what checkWords answers for such a take.
 */
export function wordsNotCheckedFor(filmLanguage: string | null): FilmWordsNotChecked | null {
  const language = primaryLanguage(filmLanguage);
  if (language === 'en') return englishWordCheckStatus() ? { reason: 'engine_missing', language } : null;
  if (language === 'zh')
    return mandarinWordCheckStatus().ready ? null : { reason: 'engine_missing', language };
  return { reason: 'language', language };
}

export async function checkWords(input: WordCheckInput): Promise<WordCheck> {
  const language = primaryLanguage(input.language);
  if (!/[\p{L}\p{N}]/u.test(input.text)) return { status: 'unchecked', reason: 'no_text', language };
  const notChecked = wordsNotCheckedFor(language);
  if (notChecked) return { status: 'unchecked', ...notChecked };
  return language === 'en' ? checkEnglish(input) : checkMandarin(input);
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
