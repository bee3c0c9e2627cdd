/**
 * Training of the classifier heads: a dense network ending in softmax (no hidden layer = multinomial
 * logistic regression), full-batch Adam, class-balanced cross-entropy, L2 weight decay.
 * Deterministic: fixed seed for initial weights, no shuffling.
 */
import type { DenseLayer, ModelHead } from '../../src/audio/analysis/emotion-model-schema';

export interface TrainOptions {
  hidden: number[];
  l2: number;
  epochs: number;
  learningRate: number;
  seed: number;
}

export const DEFAULT_TRAIN: TrainOptions = { hidden: [], l2: 0.03, epochs: 400, learningRate: 0.02, seed: 7 };

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** X: rows of normalised features; y: class indices. */
export function trainHead(
  X: Float64Array[],
  y: number[],
  classes: number,
  opt: TrainOptions = DEFAULT_TRAIN,
): ModelHead {
  const n = X.length;
  const d = X[0].length;
  const sizes = [d, ...opt.hidden, classes];
  const rand = mulberry32(opt.seed);
  const W: Float64Array[] = [];
  const B: Float64Array[] = [];
  for (let l = 0; l < sizes.length - 1; l++) {
    const w = new Float64Array(sizes[l] * sizes[l + 1]);
    const scale = l === sizes.length - 2 && opt.hidden.length === 0 ? 0 : Math.sqrt(2 / sizes[l]);
    for (let i = 0; i < w.length; i++) w[i] = (rand() * 2 - 1) * scale * Math.sqrt(3);
    W.push(w);
    B.push(new Float64Array(sizes[l + 1]));
  }
  // Class-balanced weights: every class contributes equally (we optimise unweighted recall).
  const counts = new Array(classes).fill(0);
  for (const c of y) counts[c]++;
  const sw = y.map((c) => n / (classes * counts[c]));
  const mW = W.map((w) => new Float64Array(w.length));
  const vW = W.map((w) => new Float64Array(w.length));
  const mB = B.map((b) => new Float64Array(b.length));
  const vB = B.map((b) => new Float64Array(b.length));
  const gW = W.map((w) => new Float64Array(w.length));
  const gB = B.map((b) => new Float64Array(b.length));
  const acts: Float64Array[] = sizes.map((s) => new Float64Array(s));
  const deltas: Float64Array[] = sizes.map((s) => new Float64Array(s));
  const beta1 = 0.9;
  const beta2 = 0.999;
  const L = W.length;
  for (let epoch = 1; epoch <= opt.epochs; epoch++) {
    for (const g of gW) g.fill(0);
    for (const g of gB) g.fill(0);
    for (let s = 0; s < n; s++) {
      acts[0].set(X[s]);
      for (let l = 0; l < L; l++) {
        const inp = acts[l];
        const out = acts[l + 1];
        const nin = sizes[l];
        for (let o = 0; o < sizes[l + 1]; o++) {
          let v = B[l][o];
          const row = o * nin;
          for (let i = 0; i < nin; i++) v += W[l][row + i] * inp[i];
          out[o] = l < L - 1 ? Math.max(0, v) : v;
        }
      }
      const logits = acts[L];
      let max = Number.NEGATIVE_INFINITY;
      for (const v of logits) max = Math.max(max, v);
      let sum = 0;
      for (let c = 0; c < classes; c++) {
        logits[c] = Math.exp(logits[c] - max);
        sum += logits[c];
      }
      for (let c = 0; c < classes; c++) deltas[L][c] = ((logits[c] / sum - (c === y[s] ? 1 : 0)) * sw[s]) / n;
      for (let l = L - 1; l >= 0; l--) {
        const nin = sizes[l];
        const inp = acts[l];
        const dOut = deltas[l + 1];
        const dIn = deltas[l];
        if (l > 0) dIn.fill(0);
        for (let o = 0; o < sizes[l + 1]; o++) {
          const g = dOut[o];
          if (g === 0) continue;
          gB[l][o] += g;
          const row = o * nin;
          for (let i = 0; i < nin; i++) {
            gW[l][row + i] += g * inp[i];
            if (l > 0) dIn[i] += g * W[l][row + i];
          }
        }
        if (l > 0) for (let i = 0; i < nin; i++) if (inp[i] <= 0) dIn[i] = 0;
      }
    }
    const lr = opt.learningRate;
    const c1 = 1 - beta1 ** epoch;
    const c2 = 1 - beta2 ** epoch;
    for (let l = 0; l < L; l++) {
      for (let i = 0; i < W[l].length; i++) {
        const g = gW[l][i] + opt.l2 * W[l][i];
        mW[l][i] = beta1 * mW[l][i] + (1 - beta1) * g;
        vW[l][i] = beta2 * vW[l][i] + (1 - beta2) * g * g;
        W[l][i] -= (lr * (mW[l][i] / c1)) / (Math.sqrt(vW[l][i] / c2) + 1e-8);
      }
      for (let i = 0; i < B[l].length; i++) {
        const g = gB[l][i];
        mB[l][i] = beta1 * mB[l][i] + (1 - beta1) * g;
        vB[l][i] = beta2 * vB[l][i] + (1 - beta2) * g * g;
        B[l][i] -= (lr * (mB[l][i] / c1)) / (Math.sqrt(vB[l][i] / c2) + 1e-8);
      }
    }
  }
  const layers: DenseLayer[] = W.map((w, l) => ({
    inputs: sizes[l],
    outputs: sizes[l + 1],
    weights: Array.from(w),
    bias: Array.from(B[l]),
    activation: l < L - 1 ? 'relu' : 'linear',
  }));
  return { layers };
}
