import type { DenseLayer, ModelHead } from './emotion-model-schema';

function dense(layer: DenseLayer, x: Float64Array): Float64Array {
  const y = new Float64Array(layer.outputs);
  for (let o = 0; o < layer.outputs; o++) {
    let s = layer.bias[o];
    const row = o * layer.inputs;
    for (let i = 0; i < layer.inputs; i++) s += layer.weights[row + i] * x[i];
    y[o] = layer.activation === 'relu' ? Math.max(0, s) : s;
  }
  return y;
}

/** Output logits of a head for normalised input z. */
export function headLogits(head: ModelHead, z: Float64Array): Float64Array {
  let h = z;
  for (const layer of head.layers) h = dense(layer, h);
  return h === z ? Float64Array.from(z) : h;
}

/** Softmax of logits / temperature (in place on a copy). */
export function softmax(logits: Float64Array, temperature = 1): Float64Array {
  const p = new Float64Array(logits.length);
  let max = Number.NEGATIVE_INFINITY;
  for (const v of logits) max = Math.max(max, v);
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    p[i] = Math.exp((logits[i] - max) / temperature);
    sum += p[i];
  }
  for (let i = 0; i < p.length; i++) p[i] /= sum;
  return p;
}
