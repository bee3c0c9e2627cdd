/**
 * Training of the classifier heads: a dense network ending in softmax (no hidden layer = multinomial
 * logistic regression), full-batch Adam, class-balanced cross-entropy, L2 weight decay.
 * Deterministic: fixed seed for initial weights, no shuffling.
 */
import type { DenseLayer, ModelHead } from '../../src/audio/analysis/emotion-model-schema';
import { seededRandom } from '../lib/seeded';

export interface TrainOptions {
  hidden: number[];
  l2: number;
  epochs: number;
  learningRate: number;
  seed: number;
}

export const DEFAULT_TRAIN: TrainOptions = { hidden: [], l2: 0.03, epochs: 400, learningRate: 0.02, seed: 7 };

/** X: rows of normalised features; y: class indices. Classes are weighted to count equally. */
export function trainHead(
  X: Float64Array[],
  y: number[],
  classes: number,
  opt: TrainOptions = DEFAULT_TRAIN,
): ModelHead {
  const counts = new Array(classes).fill(0);
  for (const c of y) counts[c]++;
  const targets = y.map((c) => {
    const t = new Float64Array(classes);
    t[c] = 1;
    return t;
  });
  return trainSoftHead(
    X,
    targets,
    y.map((c) => X.length / (classes * counts[c])),
    opt,
  );
}

/**
 * X: rows of normalised features; targets: a probability distribution per row (soft labels);
 * weights: per-row weight of the cross-entropy.
 */
export function trainSoftHead(
  X: Float64Array[],
  targets: Float64Array[],
  weights: number[],
  opt: TrainOptions = DEFAULT_TRAIN,
): ModelHead {
  if (opt.hidden.length === 0) return trainLinear(X, targets, weights, opt);
  const classes = targets[0].length;
  const n = X.length;
  const d = X[0].length;
  const sizes = [d, ...opt.hidden, classes];
  const rand = seededRandom(opt.seed);
  const W: Float64Array[] = [];
  const B: Float64Array[] = [];
  for (let l = 0; l < sizes.length - 1; l++) {
    const w = new Float64Array(sizes[l] * sizes[l + 1]);
    const scale = l === sizes.length - 2 && opt.hidden.length === 0 ? 0 : Math.sqrt(2 / sizes[l]);
    for (let i = 0; i < w.length; i++) w[i] = (rand() * 2 - 1) * scale * Math.sqrt(3);
    W.push(w);
    B.push(new Float64Array(sizes[l + 1]));
  }
  const sw = weights;
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
      for (let c = 0; c < classes; c++) deltas[L][c] = ((logits[c] / sum - targets[s][c]) * sw[s]) / n;
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

/**
 * The same training for a head without hidden layers (multinomial logistic regression), on flat
 * arrays: about ten times faster than the general loop, which the per-fold refits of the
 * evaluations need. Zero initial weights, full-batch Adam, L2 on the weights only.
 */
function trainLinear(
  X: Float64Array[],
  targets: Float64Array[],
  weights: number[],
  opt: TrainOptions,
): ModelHead {
  const n = X.length;
  const d = X[0].length;
  const C = targets[0].length;
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++) x.set(X[i], i * d);
  const t = new Float64Array(n * C);
  for (let i = 0; i < n; i++) t.set(targets[i], i * C);
  const sw = Float64Array.from(weights, (w) => w / n);
  const W = new Float64Array(C * d);
  const B = new Float64Array(C);
  const gW = new Float64Array(C * d);
  const gB = new Float64Array(C);
  const mW = new Float64Array(C * d);
  const vW = new Float64Array(C * d);
  const mB = new Float64Array(C);
  const vB = new Float64Array(C);
  const z = new Float64Array(C);
  const beta1 = 0.9;
  const beta2 = 0.999;
  for (let epoch = 1; epoch <= opt.epochs; epoch++) {
    gW.fill(0);
    gB.fill(0);
    for (let s = 0; s < n; s++) {
      const off = s * d;
      let max = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < C; c++) {
        let v = B[c];
        const row = c * d;
        for (let i = 0; i < d; i++) v += W[row + i] * x[off + i];
        z[c] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let c = 0; c < C; c++) {
        z[c] = Math.exp(z[c] - max);
        sum += z[c];
      }
      for (let c = 0; c < C; c++) {
        const g = (z[c] / sum - t[s * C + c]) * sw[s];
        gB[c] += g;
        const row = c * d;
        for (let i = 0; i < d; i++) gW[row + i] += g * x[off + i];
      }
    }
    const lr = opt.learningRate;
    const c1 = 1 - beta1 ** epoch;
    const c2 = 1 - beta2 ** epoch;
    for (let i = 0; i < W.length; i++) {
      const g = gW[i] + opt.l2 * W[i];
      mW[i] = beta1 * mW[i] + (1 - beta1) * g;
      vW[i] = beta2 * vW[i] + (1 - beta2) * g * g;
      W[i] -= (lr * (mW[i] / c1)) / (Math.sqrt(vW[i] / c2) + 1e-8);
    }
    for (let i = 0; i < C; i++) {
      const g = gB[i];
      mB[i] = beta1 * mB[i] + (1 - beta1) * g;
      vB[i] = beta2 * vB[i] + (1 - beta2) * g * g;
      B[i] -= (lr * (mB[i] / c1)) / (Math.sqrt(vB[i] / c2) + 1e-8);
    }
  }
  return {
    layers: [{ inputs: d, outputs: C, weights: Array.from(W), bias: Array.from(B), activation: 'linear' }],
  };
}
