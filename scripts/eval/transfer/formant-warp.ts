/**
 * Vocal-tract-length shift for the transfer bench (pure): the spectral envelope is warped along the
 * frequency axis by `factor` while the harmonics stay put, so every resonance (formant) moves by the
 * factor and the pitch does not. A shorter vocal tract (a woman's or a child's) is factor > 1,
 * a longer one < 1; adult speakers span roughly 0.85–1.2 of each other.
 *
 * Per 46 ms Hann frame (75 % overlap): the envelope E is the frame's LPC all-pole spectrum (order
 * fs/1 kHz + 4, Levinson–Durbin on the autocorrelation: it keeps narrow formant peaks that a
 * cepstral smoothing would flatten); the frame's magnitude is multiplied by E(f / factor) / E(f),
 * the phase is kept, and the frames are overlap-added with the window's energy divided out.
 */
import { fftOfSize, nextPow2 } from '../../../src/audio/analysis/fft';
import { lpc } from '../../../src/audio/analysis/formants';

/** Gain limit of the envelope correction: keeps noise in spectral valleys from being blown up. */
const MAX_GAIN_DB = 30;

export function warpFormants(x: Float32Array, sampleRate: number, factor: number): Float32Array {
  if (!(factor > 0)) throw new RangeError(`formant factor must be positive, got ${factor}`);
  const n = nextPow2(Math.round(0.046 * sampleRate));
  const hop = n / 4;
  const fft = fftOfSize(n);
  const order = Math.round(sampleRate / 1000) + 4;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  const pad = n;
  const total = x.length + 2 * pad;
  const y = new Float64Array(total);
  const norm = new Float64Array(total);
  const frame = new Float64Array(n);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const ar = new Float64Array(n);
  const ai = new Float64Array(n);
  const a = new Float64Array(order + 1);
  const r = new Float64Array(order + 1);
  const tmp = new Float64Array(order + 1);
  const env = new Float64Array(n / 2 + 1);
  const maxLog = (MAX_GAIN_DB / 20) * Math.LN10;
  const at = (i: number) => (i >= pad && i - pad < x.length ? x[i - pad] : 0);
  for (let start = 0; start + n <= total; start += hop) {
    for (let i = 0; i < n; i++) {
      frame[i] = at(start + i) * w[i];
      re[i] = frame[i];
      im[i] = 0;
    }
    fft.transform(re, im);
    if (lpc(frame, order, a, r, tmp)) {
      // Log envelope = −log |A(e^jw)|.
      ar.fill(0);
      ai.fill(0);
      ar.set(a);
      fft.transform(ar, ai);
      for (let k = 0; k <= n / 2; k++) env[k] = -0.5 * Math.log(ar[k] * ar[k] + ai[k] * ai[k] + 1e-18);
      for (let k = 0; k <= n / 2; k++) {
        const src = k / factor;
        const j = Math.floor(src);
        const e = j >= n / 2 ? env[n / 2] : env[j] + (src - j) * (env[j + 1] - env[j]);
        const g = Math.exp(Math.max(-maxLog, Math.min(maxLog, e - env[k])));
        re[k] *= g;
        im[k] *= g;
        if (k > 0 && k < n / 2) {
          re[n - k] = re[k];
          im[n - k] = -im[k];
        }
      }
    }
    fft.transform(re, im, true);
    for (let i = 0; i < n; i++) {
      y[start + i] += (re[i] / n) * w[i];
      norm[start + i] += w[i] * w[i];
    }
  }
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const nn = norm[i + pad];
    out[i] = nn > 1e-6 ? y[i + pad] / nn : 0;
  }
  return out;
}
