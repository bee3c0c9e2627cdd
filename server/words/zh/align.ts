/**
 * Which characters of the line the recogniser heard, and when (docs/words.md, "Mandarin"): the syllables heard
 * are aligned to the line's characters in order, a pair counting by how much of its initial and final
 * agree (tones aside), so a take that says the line with a few slips still lines up character by
 * character, and another sentence finds only scattered common syllables.
 */
import type { Heard } from './recogniser';
import { isInitial, type LineChar, type Syllable, splitTone } from './pinyin';

export interface HeardSyllable extends Syllable {
  /** Seconds into the take. */
  start: number;
  end: number;
}

/**
 * The model emits a token once it has heard enough of the sound, so a token's time lies inside or just
 * after its sound. A syllable is taken to begin where the previous syllable's last token was emitted,
 * or at most ONSET_LEAD before its own first token (after a pause), and to end just after its last token
 * or where the next syllable begins, whichever is first.
 */
const ONSET_LEAD = 0.2;
const END_LAG = 0.08;

/** The recognised tokens as syllables: an initial and the final after it, or a final alone. */
export function heardSyllables(heard: Heard): HeardSyllable[] {
  const spans: { initial: string; final: string; first: number; last: number }[] = [];
  let initial: { token: string; at: number } | null = null;
  heard.tokens.forEach((token, i) => {
    const at = heard.timestamps[i] ?? 0;
    if (isInitial(token)) {
      if (initial) spans.push({ initial: initial.token, final: '', first: initial.at, last: initial.at });
      initial = { token, at };
      return;
    }
    if (!/^[a-z\u00fc\u00e0-\u01dc]+$/u.test(token)) return; // <unk>, Latin letters, ○: not pinyin
    spans.push({ initial: initial?.token ?? '', final: token, first: initial?.at ?? at, last: at });
    initial = null;
  });
  if (initial !== null) {
    const last: { token: string; at: number } = initial;
    spans.push({ initial: last.token, final: '', first: last.at, last: last.at });
  }
  const starts = spans.map((s, i) => Math.max(i > 0 ? spans[i - 1].last : 0, s.first - ONSET_LEAD));
  // A syllable ends where the next begins: spans that overlapped put two characters across one
  // instant (a cut, a word played back).
  return spans.map((s, i) => ({
    initial: s.initial,
    ...splitTone(s.final),
    start: starts[i],
    end: Math.min(s.last + END_LAG, starts[i + 1] ?? Number.POSITIVE_INFINITY),
  }));
}

/** How far a heard syllable agrees with a character: 0, 0.4 (initial only), 0.6 (final only) or 1. */
export function agreement(line: Syllable, heard: Syllable): number {
  return (line.initial === heard.initial ? 0.4 : 0) + (line.final === heard.final ? 0.6 : 0);
}

/**
 * For each character of the line, the heard syllable it aligns to (index) or -1: the order-keeping
 * pairing with the greatest total agreement (a weighted longest common subsequence).
 */
export function alignLine(line: readonly LineChar[], heard: readonly HeardSyllable[]): number[] {
  const n = line.length;
  const m = heard.length;
  const best = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const pair = agreement(line[i - 1], heard[j - 1]);
      best[i][j] = Math.max(best[i - 1][j], best[i][j - 1], pair > 0 ? best[i - 1][j - 1] + pair : 0);
    }
  }
  const pairs = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const pair = agreement(line[i - 1], heard[j - 1]);
    // Ties (a syllable that repeats in the line: 是 and 十 are both shi) go to the earlier character:
    // a take that stops short has said the start of its line, not a later repeat.
    if (best[i][j] === best[i - 1][j]) i--;
    else if (pair > 0 && best[i][j] === best[i - 1][j - 1] + pair) {
      pairs[i - 1] = j - 1;
      i--;
      j--;
    } else j--;
  }
  return pairs;
}
