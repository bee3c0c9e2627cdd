import { z } from 'zod';

/**
 * The languages whose words a take is checked in (server/words): English through pocketsphinx's US
 * English model, Mandarin through a keyword-spotting model. A film's lines in any other language are
 * scored on their delivery alone, and the learner is told the words were not checked.
 */
export const WORD_CHECK_LANGUAGES = ['en', 'zh'] as const;
export const wordCheckLanguage = z.enum(WORD_CHECK_LANGUAGES);
export type WordCheckLanguage = z.infer<typeof wordCheckLanguage>;

/** One word (English) or one character group (Mandarin) of the line as the subtitle shows it. */
export const checkedWord = z.object({
  /** The word as written in the subtitle (punctuation stripped). */
  text: z.string(),
  /**
   * said: heard in its place; missed: not heard (skipped, or after where the take stopped);
   * off: heard but clearly mispronounced (English only: the check can only flag words that are
   * clearly off, docs/words.md).
   */
  state: z.enum(['said', 'missed', 'off']),
  /** Seconds into the take where the word was heard (null when missed). */
  start: z.number().nullable(),
  end: z.number().nullable(),
});
export type CheckedWord = z.infer<typeof checkedWord>;

export const wordCheck = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('checked'),
    language: wordCheckLanguage,
    words: z.array(checkedWord),
    /** 0–1: share of the line's words heard. */
    completeness: z.number(),
    /** The take is not this line: another sentence, or no words at all (reversed speech, humming). */
    otherLine: z.boolean(),
    /** English only: the experts' 0–10 scales of speechocean762, predicted; null for Mandarin. */
    pronunciation: z.object({ accuracy: z.number(), fluency: z.number(), total: z.number() }).nullable(),
    /** 0–100: the words' part of the overall score (src/audio/scoring/subscores.ts). */
    score: z.number(),
  }),
  z.object({
    status: z.literal('unchecked'),
    /**
     * language: the film's lines are in a language without a model (German, Polish);
     * engine_missing: the engine for this language is not installed on this server (docs/words.md);
     * no_text: the line has no words to check; engine_failed: the engine failed on this take (the take
     * is scored on its delivery, server/ai/take-words.ts).
     */
    reason: z.enum(['language', 'engine_missing', 'no_text', 'engine_failed']),
    /** The film's language (BCP 47 primary tag), when declared. */
    language: z.string().nullable(),
  }),
]);
export type WordCheck = z.infer<typeof wordCheck>;

/**
 * Known before any take (the dub page's film detail, `wordsNotChecked`): why this film's takes will
 * not have their words checked, as a take's `unchecked` check would say: its language has no model,
 * or this server lacks the engine for it. Absent or null: they will be checked.
 */
export const filmWordsNotChecked = z.object({
  reason: z.enum(['language', 'engine_missing']),
  /** The film's language (BCP 47 primary tag), when declared. */
  language: z.string().nullable(),
});
export type FilmWordsNotChecked = z.infer<typeof filmWordsNotChecked>;
