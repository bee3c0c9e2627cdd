/**
 * What a take's word check says to the learner, as a fact of the shared catalogue (src/i18n,
 * `words.*`), and the line's words as they are marked: the one reading of a WordCheck that the app's
 * component (src/app/ui/line-words.tsx) and the H5 page (server/h5/words.ts) both show.
 */
import type { CheckedWord, WordCheck } from '../../api/contract';
import { type Fact, fact } from '../../i18n/statements';
import { noneClear } from './words';

/** Words named in a summary at most; the rest are still marked on the line. */
const NAMED = 4;

const list = (words: CheckedWord[]): string => {
  const named = words.slice(0, NAMED).map((w) => w.text);
  return words.length > NAMED ? `${named.join(', ')} …` : named.join(', ');
};

/** The one-line summary of a take's words in the learner's language (worded with `word()`). */
export function wordsSummary(check: WordCheck): Fact {
  if (check.status === 'unchecked') {
    switch (check.reason) {
      case 'language':
        return fact('words.notChecked.language', { language: check.language ?? 'none' });
      case 'engine_missing':
        return fact('words.notChecked.engine', { language: check.language ?? 'none' });
      case 'engine_failed':
        return fact('words.notChecked.failed');
      case 'no_text':
        return fact('words.notChecked.noText');
    }
  }
  if (check.otherLine) return fact('words.otherLine');
  // Why such a take cannot pass (words.ts): the line's words all came out unclear.
  if (noneClear(check)) return fact('words.noneClear', { total: check.words.length });
  const missed = check.words.filter((w) => w.state === 'missed');
  const off = check.words.filter((w) => w.state === 'off');
  return fact('words.summary', {
    said: check.words.length - missed.length,
    total: check.words.length,
    missedCount: missed.length,
    missed: list(missed),
    offCount: off.length,
    off: list(off),
  });
}

/** Where a word sits in the take and in the actor's line, when both were heard: it can be played. */
export interface WordClip {
  actor: { start: number; end: number };
  take: { start: number; end: number };
}

/**
 * The clip of the i-th word of the line for "the actor's word, then yours": only for a word heard in
 * the take (said or off) and in the actor's line, each cut by its own check's times. The two checks
 * read the same line text, so their words pair by position.
 */
export function wordClip(check: WordCheck, actor: WordCheck | null | undefined, i: number): WordClip | null {
  if (check.status !== 'checked' || check.otherLine || actor?.status !== 'checked') return null;
  const mine = check.words[i];
  const theirs = actor.words[i];
  if (!mine || !theirs || mine.state === 'missed' || theirs.state === 'missed') return null;
  if (mine.text !== theirs.text) return null;
  if (mine.start === null || mine.end === null || theirs.start === null || theirs.end === null) return null;
  if (!(mine.end > mine.start && theirs.end > theirs.start)) return null;
  return { actor: { start: theirs.start, end: theirs.end }, take: { start: mine.start, end: mine.end } };
}
