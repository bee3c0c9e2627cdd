import { fftOfSize, nextPow2, powerPair } from './fft';

/** Number of cepstral coefficients kept (c1..c12; c0 is dropped as it duplicates loudness). */
export const MFCC_COUNT = 12;
const MEL_BANDS = 26;

export interface SpectralTracks {
  loudness: Float32Array;
  /** [frame * MFCC_COUNT + k] for c(k+1). */
  mfcc: Float32Array;
  /** 10*log10(E 50–1000 Hz / E 1–5 kHz) (dB). */
  alphaRatio: Float32Array;
  /** Max dB 0–2 kHz minus max dB 2–5 kHz. */
  hammarberg: Float32Array;
  /** Regression slope of the dB spectrum, 0–500 Hz and 500–1500 Hz (dB/kHz). */
  slopeLow: Float32Array;
  slopeHigh: Float32Array;
  /** Squared difference of consecutive L1-normalised magnitude spectra. */
  flux: Float32Array;
  /** Spectral centroid (Hz). */
  centroid: Float32Array;
}

function hz2mel(f: number): number {
  return 1127 * Math.log(1 + f / 700);
}
function mel2hz(m: number): number {
  return 700 * (Math.exp(m / 1127) - 1);
}

/** Pre-allocated short-time spectral analysis (Hamming window, FRAME_SAMPLES long). */
export class SpectralAnalyzer {
  readonly sampleRate: number;
  readonly frameSamples: number;
  readonly nFft: number;
  private readonly win: Float64Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly power: Float64Array;
  private readonly power2: Float64Array;
  private readonly bands: {
    k50: number;
    k500: number;
    k1000: number;
    k1500: number;
    k2000: number;
    k5000: number;
  };
  private readonly prevMag: Float64Array;
  private readonly mag: Float64Array;
  private readonly melLo: Int32Array;
  private readonly melHi: Int32Array;
  private readonly melW: Float64Array; // [band * bins + bin]
  private readonly melE: Float64Array;
  private readonly dct: Float64Array; // [k * MEL_BANDS + b]
  private readonly bins: number;

  constructor(sampleRate: number, frameSamples: number) {
    this.sampleRate = sampleRate;
    this.frameSamples = frameSamples;
    this.nFft = nextPow2(frameSamples);
    this.bins = this.nFft / 2 + 1;
    this.win = new Float64Array(frameSamples);
    for (let i = 0; i < frameSamples; i++)
      this.win[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (frameSamples - 1));
    this.re = new Float64Array(this.nFft);
    this.im = new Float64Array(this.nFft);
    this.power = new Float64Array(this.bins);
    this.power2 = new Float64Array(this.bins);
    const hz = sampleRate / this.nFft;
    this.bands = {
      k50: Math.round(50 / hz),
      k500: Math.round(500 / hz),
      k1000: Math.round(1000 / hz),
      k1500: Math.round(1500 / hz),
      k2000: Math.round(2000 / hz),
      k5000: Math.min(this.bins - 1, Math.round(5000 / hz)),
    };
    this.mag = new Float64Array(this.bins);
    this.prevMag = new Float64Array(this.bins);
    this.melE = new Float64Array(MEL_BANDS);
    this.melLo = new Int32Array(MEL_BANDS);
    this.melHi = new Int32Array(MEL_BANDS);
    this.melW = new Float64Array(MEL_BANDS * this.bins);
    const lo = hz2mel(20);
    const hi = hz2mel(Math.min(8000, sampleRate / 2));
    const binHz = sampleRate / this.nFft;
    for (let b = 0; b < MEL_BANDS; b++) {
      const f0 = mel2hz(lo + ((hi - lo) * b) / (MEL_BANDS + 1));
      const f1 = mel2hz(lo + ((hi - lo) * (b + 1)) / (MEL_BANDS + 1));
      const f2 = mel2hz(lo + ((hi - lo) * (b + 2)) / (MEL_BANDS + 1));
      this.melLo[b] = Math.max(0, Math.floor(f0 / binHz));
      this.melHi[b] = Math.min(this.bins - 1, Math.ceil(f2 / binHz));
      for (let k = this.melLo[b]; k <= this.melHi[b]; k++) {
        const f = k * binHz;
        const w = f < f1 ? (f - f0) / (f1 - f0) : (f2 - f) / (f2 - f1);
        this.melW[b * this.bins + k] = Math.max(0, w);
      }
    }
    this.dct = new Float64Array(MFCC_COUNT * MEL_BANDS);
    for (let k = 0; k < MFCC_COUNT; k++)
      for (let b = 0; b < MEL_BANDS; b++)
        this.dct[k * MEL_BANDS + b] =
          Math.sqrt(2 / MEL_BANDS) * Math.cos((Math.PI * (k + 1) * (b + 0.5)) / MEL_BANDS);
  }

  static allocate(frames: number): SpectralTracks {
    return {
      loudness: new Float32Array(frames),
      mfcc: new Float32Array(frames * MFCC_COUNT),
      alphaRatio: new Float32Array(frames),
      hammarberg: new Float32Array(frames),
      slopeLow: new Float32Array(frames),
      slopeHigh: new Float32Array(frames),
      flux: new Float32Array(frames),
      centroid: new Float32Array(frames),
    };
  }

  private fill(x: Float32Array, hop: number, f: number, dst: Float64Array): void {
    const N = this.frameSamples;
    const n = x.length;
    const start = Math.round((f + 0.5) * hop) - (N >> 1);
    for (let i = 0; i < N; i++) {
      const j = start + i;
      dst[i] = j >= 0 && j < n ? x[j] * this.win[i] : 0;
    }
  }

  /** Analyse `frames` frames of x centred at (i + 0.5) * hop, two real frames per complex FFT. */
  run(x: Float32Array, hop: number, frames: number, out: SpectralTracks): void {
    const { re, im } = this;
    const fft = fftOfSize(this.nFft);
    this.prevMag.fill(0);
    for (let f = 0; f < frames; f += 2) {
      re.fill(0);
      im.fill(0);
      this.fill(x, hop, f, re);
      if (f + 1 < frames) this.fill(x, hop, f + 1, im);
      fft.transform(re, im);
      powerPair(re, im, this.nFft, this.power, this.power2);
      this.frame(f, this.power, out);
      if (f + 1 < frames) this.frame(f + 1, this.power2, out);
    }
  }

  private frame(f: number, power: Float64Array, out: SpectralTracks): void {
    const { mag, prevMag, bins, melE } = this;
    const binHz = this.sampleRate / this.nFft;
    const b = this.bands;
    let total = 0;
    let centroidNum = 0;
    for (let k = 0; k < bins; k++) {
      mag[k] = Math.sqrt(power[k]);
      total += mag[k];
      centroidNum += mag[k] * k * binHz;
    }
    out.centroid[f] = total > 0 ? centroidNum / total : 0;
    // Flux between L1-normalised magnitude spectra.
    let flux = 0;
    const inv = total > 0 ? 1 / total : 0;
    for (let k = 0; k < bins; k++) {
      const m = mag[k] * inv;
      const d = m - prevMag[k];
      flux += d * d;
      prevMag[k] = m;
    }
    out.flux[f] = f === 0 ? 0 : flux;
    // Mel bands: loudness (power law) and MFCC.
    let loud = 0;
    for (let m = 0; m < MEL_BANDS; m++) {
      let e = 0;
      const row = m * bins;
      for (let k = this.melLo[m]; k <= this.melHi[m]; k++) e += this.melW[row + k] * power[k];
      melE[m] = Math.log(e + 1e-10);
      loud += Math.exp(0.3 * melE[m]);
    }
    out.loudness[f] = loud;
    for (let c = 0; c < MFCC_COUNT; c++) {
      let s = 0;
      const row = c * MEL_BANDS;
      for (let m = 0; m < MEL_BANDS; m++) s += this.dct[row + m] * melE[m];
      out.mfcc[f * MFCC_COUNT + c] = s;
    }
    // Band energies for alpha ratio / Hammarberg.
    let eLow = 0;
    let eHigh = 0;
    let maxLow = 0;
    let maxHigh = 0;
    for (let k = 1; k <= b.k5000; k++) {
      const pw = power[k];
      if (k >= b.k50 && k < b.k1000) eLow += pw;
      else if (k >= b.k1000) eHigh += pw;
      if (k < b.k2000) {
        if (pw > maxLow) maxLow = pw;
      } else if (pw > maxHigh) maxHigh = pw;
    }
    out.alphaRatio[f] = 10 * Math.log10((eLow + 1e-12) / (eHigh + 1e-12));
    out.hammarberg[f] = 10 * Math.log10((maxLow + 1e-12) / (maxHigh + 1e-12));
    out.slopeLow[f] = slopeDbPerKhz(power, 1, b.k500, binHz);
    out.slopeHigh[f] = slopeDbPerKhz(power, b.k500, b.k1500, binHz);
  }
}

/** Least-squares slope of 10*log10(power) against frequency over bins [a, b] (dB/kHz). */
function slopeDbPerKhz(power: Float64Array, a: number, b: number, binHz: number): number {
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  const m = b - a + 1;
  for (let k = a; k <= b; k++) {
    const xk = (k * binHz) / 1000;
    const y = 10 * Math.log10(power[k] + 1e-12);
    sx += xk;
    sy += y;
    sxx += xk * xk;
    sxy += xk * y;
  }
  const den = m * sxx - sx * sx;
  return den > 0 ? (m * sxy - sx * sy) / den : 0;
}
