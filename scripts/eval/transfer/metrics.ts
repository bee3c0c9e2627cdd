/** Figures of the transfer bench: UAR, ROC AUC, expected calibration error. */
import type { Emotion } from '../../../src/api/contract';
import { rocAuc } from '../roc-auc';

/** Unweighted average recall over `classes` (only takes whose truth is one of them). */
export function uar(
  pairs: Array<{ truth: Emotion; predicted: Emotion }>,
  classes: readonly Emotion[],
): number {
  let sum = 0;
  let used = 0;
  for (const c of classes) {
    const rows = pairs.filter((p) => p.truth === c);
    if (rows.length === 0) continue;
    sum += rows.filter((p) => p.predicted === c).length / rows.length;
    used++;
  }
  if (used === 0) throw new Error('UAR over no takes');
  return sum / used;
}

/** The class among `classes` with the highest probability. */
export function argmaxOf(p: Record<Emotion, number>, classes: readonly Emotion[]): Emotion {
  let best = classes[0];
  for (const c of classes) if (p[c] > p[best]) best = c;
  return best;
}

/** Top-label expected calibration error, `bins` equal-width confidence bins. */
export function expectedCalibrationError(
  rows: Array<{ confidence: number; correct: boolean }>,
  bins = 10,
): number {
  if (rows.length === 0) throw new Error('ECE over no takes');
  const n = new Array(bins).fill(0);
  const conf = new Array(bins).fill(0);
  const acc = new Array(bins).fill(0);
  for (const r of rows) {
    const b = Math.min(bins - 1, Math.floor(r.confidence * bins));
    n[b]++;
    conf[b] += r.confidence;
    acc[b] += r.correct ? 1 : 0;
  }
  let e = 0;
  for (let b = 0; b < bins; b++)
    if (n[b]) e += (n[b] / rows.length) * Math.abs(acc[b] / n[b] - conf[b] / n[b]);
  return e;
}

export function auc(rows: Array<{ score: number; positive: boolean }>): number {
  const v = rocAuc(rows);
  if (!Number.isFinite(v)) throw new Error('AUC needs positives and negatives');
  return v;
}
