/** Synthesised test signals (no fixtures needed for pure DSP tests). */

export function sine(freq: number, rate: number, length: number, amplitude = 1, phase = 0): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * freq * i) / rate + phase);
  return out;
}

/** Deterministic white-ish noise (xorshift), so a failure reproduces. */
export function noise(length: number, seed = 1): Float32Array {
  const out = new Float32Array(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}

/** Amplitude of the component at `freq` (least-squares fit of sin + cos) over [from, to). */
export function toneAmplitude(x: Float32Array, freq: number, rate: number, from: number, to: number): number {
  let ss = 0;
  let cc = 0;
  let sc = 0;
  let xs = 0;
  let xc = 0;
  for (let i = from; i < to; i++) {
    const w = (2 * Math.PI * freq * i) / rate;
    const s = Math.sin(w);
    const c = Math.cos(w);
    ss += s * s;
    cc += c * c;
    sc += s * c;
    xs += x[i] * s;
    xc += x[i] * c;
  }
  const det = ss * cc - sc * sc;
  const a = (xs * cc - xc * sc) / det;
  const b = (xc * ss - xs * sc) / det;
  return Math.hypot(a, b);
}

export function rms(x: Float32Array, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i] * x[i];
  return Math.sqrt(s / Math.max(1, to - from));
}

export const db = (ratio: number): number => 20 * Math.log10(ratio);

/** Normalised correlation of two signals (over the shorter length): 1 for the same shape. */
export function ncc(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb + 1e-30);
}
