/**
 * How the words of a take (server/words) enter its overall score: the one place the composition
 * lives (docs/words.md). A take that is another line, or misses most of its line, cannot pass
 * whatever its delivery; a line whose words were not checked keeps its delivery score alone.
 */
import type { SpeechScore, WordCheck } from '../../api/contract';

/** Share of the overall score carried by the words when they were checked. */
export const WORDS_WEIGHT = 0.4;
/** The pass mark of a take's overall score (the goal "wrong lines passing" counts takes at or above it). */
export const PASS_SCORE = 60;
/** The most a take that is not this line can score: well below PASS_SCORE. */
export const OTHER_LINE_CAP = 30;
/** The most a take that said under half of its line can score. */
export const INCOMPLETE_CAP = 45;

export function overallWithWords(delivery: number, words: WordCheck | null | undefined): number {
  if (words?.status !== 'checked') return delivery;
  const blended = (1 - WORDS_WEIGHT) * delivery + WORDS_WEIGHT * words.score;
  if (words.otherLine) return Math.min(blended, OTHER_LINE_CAP);
  if (words.completeness < 0.5) return Math.min(blended, INCOMPLETE_CAP);
  return blended;
}

/** The take's score with its word check: `words` set and `overall` composed with it. */
export function withWords(score: SpeechScore, words: WordCheck): SpeechScore {
  const delivery = score.words ? null : score.overall;
  if (delivery === null) throw new Error('withWords: the take already carries a word check');
  return { ...score, words, overall: Math.round(overallWithWords(delivery, words)) };
}
