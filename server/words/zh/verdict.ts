/**
 * The Mandarin word check's verdict on one take (docs/words.md, "Mandarin"): which characters were said, with
 * their times, the share said, and whether the take is another line. The thresholds were chosen on
 * line-check/zh (AISHELL-1 sentences and HSK words), wrong-line pairs, reversed takes, German and Polish
 * speech and silence; docs/words.md, "Mandarin" gives the figures.
 */
import type { CheckedWord, WordCheck } from '../../../src/api/contract';
import { agreement, alignLine, type HeardSyllable } from './align';
import type { LineChar } from './pinyin';

/**
 * A character counts as said only when both its initial and its final were heard (tones aside): with
 * the final alone counting, another sentence's scattered common finals lifted wrong lines to 44 % said.
 */
const SAID_AGREEMENT = 1;
/**
 * Another line, or no words: under half the line said, and what was heard is mostly not this line (or
 * under three of its characters). Measured: wrong lines ≤ 31 % said and ≤ 26 % of their syllables in
 * the line; a take cut to 60 % ≥ 40 % said with ≥ 57 % of its syllables in the line.
 */
const OTHER_LINE_MAX_SAID = 0.5;
const OTHER_LINE_MAX_PRECISION = 0.5;
const OTHER_LINE_MIN_CHARS = 3;
/**
 * Another line, whatever share of the line was said: under a quarter of the syllables heard belong to
 * the line. A line of one or two characters is "all said" as soon as another sentence holds one of its
 * syllables (的, 好, 我们); what tells them apart is the rest of the take. Chosen on line-check/zh (the
 * only Mandarin set held): right and cut takes had ≥ 0.33 of their syllables in the line (a word of
 * one character with two stray syllables), sentences against another line ≤ 0.29, against a word ≤ 0.11.
 */
const ANY_LINE_MIN_PRECISION = 0.25;

export type CheckedLine = Extract<WordCheck, { status: 'checked' }>;

export function judgeLine(line: readonly LineChar[], heard: readonly HeardSyllable[]): CheckedLine {
  const pairs = alignLine(line, heard);
  const heardAt = line.map((char, i) => {
    const j = pairs[i];
    return j >= 0 && agreement(char, heard[j]) >= SAID_AGREEMENT ? heard[j] : null;
  });
  const said = heardAt.filter((h) => h !== null).length;
  const completeness = line.length ? said / line.length : 0;
  const precision = heard.length ? said / heard.length : 0;
  const otherLine =
    (completeness < OTHER_LINE_MAX_SAID &&
      (precision < OTHER_LINE_MAX_PRECISION || said < OTHER_LINE_MIN_CHARS)) ||
    precision < ANY_LINE_MIN_PRECISION;
  // Another line: none of this line's characters count as said, whatever syllables it shares with the
  // take, as in English (server/words/en/verdict.ts): the line panel, the words' score and the summary
  // then say the same thing.
  const words: CheckedWord[] = line.map((char, i) => {
    const h = otherLine ? null : heardAt[i];
    return h
      ? { text: char.text, state: 'said', start: round(h.start), end: round(h.end) }
      : { text: char.text, state: 'missed', start: null, end: null };
  });
  const shown = otherLine ? 0 : completeness;
  return {
    status: 'checked',
    language: 'zh',
    words,
    completeness: round(shown),
    otherLine,
    pronunciation: null,
    score: Math.round(100 * shown),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
