/**
 * The statistics of the words training script and bench: least squares, logistic regression,
 * speaker-grouped folds, Pearson's r and the area under the ROC curve.
 */
import { seededOrder } from '../lib/seeded';

/** Solves A x = b (A square) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const d = m[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / d;
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

export interface Linear {
  weights: number[];
  intercept: number;
}

export function predictLinear(model: Linear, x: number[]): number {
  return x.reduce((y, v, i) => y + model.weights[i] * v, model.intercept);
}

/** Ordinary least squares with a small ridge on standardised features, returned on the raw scale. */
export function fitOls(xs: number[][], ys: number[], ridge = 1e-2): Linear {
  const d = xs[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j], 0) / xs.length);
  const sd = mean.map((m, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j] - m) ** 2, 0) / xs.length) || 1);
  const z = xs.map((x) => x.map((v, j) => (v - mean[j]) / sd[j]));
  const yMean = ys.reduce((s, y) => s + y, 0) / ys.length;
  const ata = Array.from({ length: d }, (_, i) =>
    Array.from(
      { length: d },
      (_, j) => z.reduce((s, x) => s + x[i] * x[j], 0) + (i === j ? ridge * xs.length : 0),
    ),
  );
  const atb = Array.from({ length: d }, (_, i) => z.reduce((s, x, k) => s + x[i] * (ys[k] - yMean), 0));
  const w = d ? solve(ata, atb) : [];
  const weights = w.map((v, j) => v / sd[j]);
  return { weights, intercept: yMean - weights.reduce((s, v, j) => s + v * mean[j], 0) };
}

/** Logistic regression (label 1 vs 0) by gradient descent on standardised features. */
export function fitLogistic(xs: number[][], ys: number[], steps = 3000, rate = 0.5, l2 = 1e-3): Linear {
  const d = xs[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j], 0) / xs.length);
  const sd = mean.map((m, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j] - m) ** 2, 0) / xs.length) || 1);
  const z = xs.map((x) => x.map((v, j) => (v - mean[j]) / sd[j]));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < steps; step++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    z.forEach((x, k) => {
      const p = 1 / (1 + Math.exp(-(b + x.reduce((s, v, j) => s + w[j] * v, 0))));
      const e = p - ys[k];
      for (let j = 0; j < d; j++) gw[j] += e * x[j];
      gb += e;
    });
    for (let j = 0; j < d; j++) w[j] -= rate * (gw[j] / z.length + l2 * w[j]);
    b -= (rate * gb) / z.length;
  }
  const weights = w.map((v, j) => v / sd[j]);
  return { weights, intercept: b - weights.reduce((s, v, j) => s + v * mean[j], 0) };
}

/** Fold of each speaker: speakers shuffled by a seed and dealt round-robin into k folds. */
export function speakerFolds(speakers: readonly string[], k: number, seed = 39): Map<string, number> {
  const unique = seededOrder([...new Set(speakers)].sort(), seed);
  return new Map(unique.map((s, i) => [s, i % k]));
}

export function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  if (n < 3) return Number.NaN;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** P(a positive scores above a negative), ties counting half; NaN when either side is empty. */
export function auc(positives: readonly number[], negatives: readonly number[]): number {
  if (!positives.length || !negatives.length) return Number.NaN;
  const all = [...positives.map((v) => ({ v, p: 1 })), ...negatives.map((v) => ({ v, p: 0 }))].sort(
    (x, y) => x.v - y.v,
  );
  let rankSum = 0;
  let i = 0;
  while (i < all.length) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k].p) rankSum += rank;
    i = j + 1;
  }
  const np = positives.length;
  return (rankSum - (np * (np + 1)) / 2) / (np * negatives.length);
}
