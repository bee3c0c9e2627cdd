/**
 * Channel shifts for the transfer bench (pure): a phone or laptop microphone (band limit and tilt
 * EQ), additive noise at a set SNR, and a small room's reverberation.
 */
import { fftOfSize, nextPow2 } from '../../../src/audio/analysis/fft';
import { seededRandom } from '../../lib/seeded';

/** Standard normal from a uniform source (Box–Muller). */
function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** RBJ audio-EQ-cookbook sections, normalised by a0. */
function section(kind: 'lowpass' | 'highpass' | 'highshelf', f: number, fs: number, q: number, gainDb = 0) {
  const w0 = (2 * Math.PI * f) / fs;
  const cos = Math.cos(w0);
  const sin = Math.sin(w0);
  let b0: number;
  let b1: number;
  let b2: number;
  let a0: number;
  let a1: number;
  let a2: number;
  if (kind === 'highshelf') {
    const A = 10 ** (gainDb / 40);
    const alpha = (sin / 2) * Math.SQRT2; // shelf slope S = 1
    const s = 2 * Math.sqrt(A) * alpha;
    b0 = A * (A + 1 + (A - 1) * cos + s);
    b1 = -2 * A * (A - 1 + (A + 1) * cos);
    b2 = A * (A + 1 + (A - 1) * cos - s);
    a0 = A + 1 - (A - 1) * cos + s;
    a1 = 2 * (A - 1 - (A + 1) * cos);
    a2 = A + 1 - (A - 1) * cos - s;
  } else {
    const alpha = sin / (2 * q);
    const lp = kind === 'lowpass';
    b1 = lp ? 1 - cos : -(1 + cos);
    b0 = Math.abs(b1) / 2;
    b2 = b0;
    a0 = 1 + alpha;
    a1 = -2 * cos;
    a2 = 1 - alpha;
  }
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
}

function runBiquads(x: Float32Array, sections: Biquad[]): Float32Array {
  const y = Float32Array.from(x);
  for (const s of sections) {
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < y.length; i++) {
      const v = y[i];
      const o = s.b0 * v + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = o;
      y[i] = o;
    }
  }
  return y;
}

/** Q of the two sections of a 4th-order Butterworth filter. */
const BUTTER4 = [0.5412, 1.3066];

export interface MicrophoneOptions {
  /** Pass band (Hz): 4th-order Butterworth high-pass and low-pass edges. */
  lowHz: number;
  highHz: number;
  /** High-shelf gain (dB) above `tiltHz`: > 0 a thin, bright microphone, < 0 a dull one. */
  tiltDb: number;
  tiltHz: number;
}

/** A telephone-band microphone with a bright tilt (the bench's "phone" condition). */
export const PHONE: MicrophoneOptions = { lowHz: 300, highHz: 3400, tiltDb: 6, tiltHz: 1500 };

export function microphone(x: Float32Array, sampleRate: number, o: MicrophoneOptions): Float32Array {
  const sections: Biquad[] = [];
  for (const q of BUTTER4) sections.push(section('highpass', o.lowHz, sampleRate, q));
  if (o.highHz < sampleRate / 2)
    for (const q of BUTTER4) sections.push(section('lowpass', o.highHz, sampleRate, q));
  if (o.tiltDb !== 0) sections.push(section('highshelf', o.tiltHz, sampleRate, Math.SQRT1_2, o.tiltDb));
  return runBiquads(x, sections);
}

export type NoiseColour = 'white' | 'pink' | 'brown';

/** Seeded noise of a colour, unit RMS. Pink after Kellet's economy filter; brown = leaky integral. */
export function noise(length: number, colour: NoiseColour, seed: number): Float32Array {
  const rand = seededRandom(seed);
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let br = 0;
  for (let i = 0; i < length; i++) {
    const w = gaussian(rand);
    if (colour === 'white') out[i] = w;
    else if (colour === 'pink') {
      b0 = 0.99765 * b0 + w * 0.099046;
      b1 = 0.963 * b1 + w * 0.2965164;
      b2 = 0.57 * b2 + w * 1.0526913;
      out[i] = b0 + b1 + b2 + w * 0.1848;
    } else {
      br = 0.995 * br + w;
      out[i] = br;
    }
  }
  let p = 0;
  for (const v of out) p += v * v;
  const g = 1 / Math.sqrt(p / Math.max(1, length) || 1);
  for (let i = 0; i < length; i++) out[i] *= g;
  return out;
}

export function meanPower(x: ArrayLike<number>): number {
  let p = 0;
  for (let i = 0; i < x.length; i++) p += x[i] * x[i];
  return x.length ? p / x.length : 0;
}

/** x plus noise scaled so that 10 log10(P_signal / P_noise) over the whole take is `snrDb`. */
export function addNoise(
  x: Float32Array,
  snrDb: number,
  colour: NoiseColour = 'pink',
  seed = 1,
): Float32Array {
  const n = noise(x.length, colour, seed);
  const g = Math.sqrt(meanPower(x) / 10 ** (snrDb / 10));
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] + g * n[i];
  return out;
}

/**
 * A room impulse response: the direct sound, then from 2 ms on Gaussian noise whose energy falls
 * 60 dB in `rt60` seconds (exponential decay, the statistical model of a diffuse field), scaled so
 * the reverberant energy is `drrDb` below the direct sound.
 */
export function roomImpulse(sampleRate: number, rt60: number, drrDb = 0, seed = 1): Float32Array {
  const len = Math.round(rt60 * sampleRate * 1.2);
  const h = new Float32Array(len);
  const rand = seededRandom(seed);
  const start = Math.round(0.002 * sampleRate);
  const decay = (3 * Math.LN10) / rt60; // amplitude falls 10^-3 (60 dB) over rt60
  let energy = 0;
  for (let i = start; i < len; i++) {
    h[i] = gaussian(rand) * Math.exp((-decay * i) / sampleRate);
    energy += h[i] * h[i];
  }
  const g = Math.sqrt(10 ** (-drrDb / 10) / energy);
  for (let i = start; i < len; i++) h[i] *= g;
  h[0] = 1;
  return h;
}

/** Linear convolution of x with h (FFT overlap-free, one block), cut to x's length. */
export function convolve(x: Float32Array, h: Float32Array): Float32Array {
  const size = nextPow2(x.length + h.length - 1);
  const fft = fftOfSize(size);
  const ar = new Float64Array(size);
  const ai = new Float64Array(size);
  const br = new Float64Array(size);
  const bi = new Float64Array(size);
  ar.set(x);
  br.set(h);
  fft.transform(ar, ai);
  fft.transform(br, bi);
  for (let k = 0; k < size; k++) {
    const r = ar[k] * br[k] - ai[k] * bi[k];
    const i = ar[k] * bi[k] + ai[k] * br[k];
    ar[k] = r;
    ai[k] = i;
  }
  fft.transform(ar, ai, true);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = ar[i] / size;
  return out;
}

export function reverberate(
  x: Float32Array,
  sampleRate: number,
  rt60: number,
  drrDb = 0,
  seed = 1,
): Float32Array {
  return convolve(x, roomImpulse(sampleRate, rt60, drrDb, seed));
}
