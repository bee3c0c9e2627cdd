/**
 * How the words of a take (server/words) enter its overall score: the one place the composition
 * lives (docs/score.md). A take that is another line, misses most of its line or says none of its
 * words clearly cannot pass whatever its delivery; a line whose words were not checked keeps its
 * delivery score alone.
 */
import type { SpeechScore, WordCheck } from '../../api/contract';

/** Share of the overall score carried by the words when they were checked. */
export const WORDS_WEIGHT = 0.4;
/** The pass mark of a take's overall score (the goal "wrong lines passing" counts takes at or above it). */
export const PASS_SCORE = 60;
/** The most a take that is not this line can score: well below PASS_SCORE. */
export const OTHER_LINE_CAP = 30;
/** A take that said less than this share of its line's words "misses most of its line". */
export const MOSTLY_MISSED = 0.5;
/** The most a take that missed most of its line, or said none of it clearly, can score: below PASS_SCORE. */
export const INCOMPLETE_CAP = 45;

/**
 * Every word of the line heard but none clearly ("off": the English check's flag, docs/words.md). The
 * line's words forced onto another sentence come out this way: on so762-train, 40 of the 92 wrong-line
 * checks that were neither called another line nor mostly missed, against 16 of the 582 such right
 * lines, which the experts scored 2.3–7.5 of 10 (median 4.2). Such a take is not heard as the line.
 */
export function noneClear(words: Extract<WordCheck, { status: 'checked' }>): boolean {
  return words.words.length > 0 && words.words.every((w) => w.state === 'off');
}

/**
 * The overall score of a take whose delivery (src/audio/scoring/subscores.ts, overallScore) scored
 * `delivery`, given its word check: the delivery alone when the words were not checked; else the
 * words' sub-score blended in at WORDS_WEIGHT, capped below the pass mark for another line (or no
 * words at all), for a line mostly missed and for one none of whose words came through clearly.
 * The delivery's sub-scores are never changed.
 */
export function overallWithWords(delivery: number, words: WordCheck | null | undefined): number {
  if (words?.status !== 'checked') return delivery;
  const wordsScore = Number.isFinite(words.score) ? Math.min(100, Math.max(0, words.score)) : 0;
  const blended = (1 - WORDS_WEIGHT) * delivery + WORDS_WEIGHT * wordsScore;
  if (words.otherLine) return Math.min(blended, OTHER_LINE_CAP);
  // Written so that a completeness that is not a number counts as missed, never as complete.
  if (!(words.completeness >= MOSTLY_MISSED)) return Math.min(blended, INCOMPLETE_CAP);
  if (noneClear(words)) return Math.min(blended, INCOMPLETE_CAP);
  return blended;
}

/**
 * The take's score with its word check: `words` set and `overall` composed with it. A take without
 * speech keeps its overall (it is no score, src/audio/scoring/aggregate.ts) and carries the check.
 */
export function withWords(score: SpeechScore, words: WordCheck): SpeechScore {
  if (score.words) throw new Error('withWords: the take already carries a word check');
  if (!score.quality.speechDetected) return { ...score, words };
  return { ...score, words, overall: Math.round(overallWithWords(score.overall, words)) };
}

/** The words' sub-score of a take to show beside the others, or null when its words were not checked. */
export function wordsSubScore(score: Pick<SpeechScore, 'words'>): number | null {
  return score.words?.status === 'checked' ? Math.round(score.words.score) : null;
}
