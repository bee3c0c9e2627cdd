import { EMOTION_PASS } from '../../src/audio/scoring/aggregate';

/**
 * ROC AUC of scores against binary labels: the probability that a random positive scores above a
 * random negative (ties count half), computed from ranks (Mann–Whitney U) in O(n log n).
 */
export function rocAuc(items: ReadonlyArray<{ score: number; positive: boolean }>): number {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  let rankSumPos = 0;
  let pos = 0;
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1].score === sorted[i].score) j++;
    const midRank = (i + j) / 2 + 1; // average 1-based rank of the tie group
    for (let k = i; k <= j; k++) {
      if (sorted[k].positive) {
        rankSumPos += midRank;
        pos++;
      }
    }
    i = j + 1;
  }
  const neg = sorted.length - pos;
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * Share of the positive (or negative) items that reach the app's pass mark (EMOTION_PASS): the right-
 * (or wrong-) emotion pass rate of a set of scored pairs.
 */
export function passRate(
  items: ReadonlyArray<{ score: number; positive: boolean }>,
  positive: boolean,
): number {
  const sel = items.filter((x) => x.positive === positive);
  return sel.filter((x) => x.score >= EMOTION_PASS).length / sel.length;
}
