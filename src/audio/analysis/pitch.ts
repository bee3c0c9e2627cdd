import { fftOfSize, nextPow2, powerPair } from './fft';

/**
 * Pitch tracker after Boersma (1993), "Accurate short-term analysis of the fundamental frequency
 * and the harmonics-to-noise ratio of a sampled sound" — the algorithm of Praat's "To Pitch (ac)":
 * per frame, the autocorrelation of a Hann-windowed frame divided by the window's own
 * autocorrelation; its peaks are candidates; a Viterbi path over candidates (octave cost,
 * octave-jump cost, voiced/unvoiced cost) removes octave errors and decides voicing.
 * Parameters default to Praat's so that `npm run eval:pitch` can hold us to it.
 */
export interface PitchParams {
  floorHz: number;
  ceilingHz: number;
  maxCandidates: number;
  silenceThreshold: number;
  voicingThreshold: number;
  octaveCost: number;
  octaveJumpCost: number;
  voicedUnvoicedCost: number;
}

export const DEFAULT_PITCH_PARAMS: PitchParams = {
  floorHz: 60,
  ceilingHz: 600,
  maxCandidates: 15,
  silenceThreshold: 0.03,
  voicingThreshold: 0.45,
  octaveCost: 0.01,
  octaveJumpCost: 0.35,
  voicedUnvoicedCost: 0.14,
};

export interface PitchResult {
  f0Hz: Float32Array;
  voicing: Float32Array;
}

const PERIODS_PER_WINDOW = 3;

/** Pre-allocated state for one sample rate / parameter set. */
export class PitchTracker {
  readonly sampleRate: number;
  readonly params: PitchParams;
  private readonly win: Float64Array;
  private readonly winAc: Float64Array;
  private readonly nWin: number;
  private readonly nFft: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly frame: Float64Array;
  private readonly frame2: Float64Array;
  private readonly pa: Float64Array;
  private readonly pb: Float64Array;
  private readonly ac: Float64Array;
  private readonly minLag: number;
  private readonly maxLag: number;
  private capacity = 0;
  // Per-frame candidates: frequency 0 = unvoiced. Layout [frame * maxCandidates + c].
  private candF = new Float64Array(0);
  private candR = new Float64Array(0);
  private candN = new Int32Array(0);
  private localPeak = new Float64Array(0);
  private score = new Float64Array(0);
  private back = new Int32Array(0);

  constructor(sampleRate: number, params: PitchParams = DEFAULT_PITCH_PARAMS) {
    this.sampleRate = sampleRate;
    this.params = params;
    this.nWin = Math.round((PERIODS_PER_WINDOW / params.floorHz) * sampleRate);
    // The FFT only has to hold the frame: lags up to maxLag then wrap onto lags >= N - maxLag, where
    // the autocorrelation of a Hann-windowed frame is below 1e-3 of its energy (at 8 kHz and 60 Hz:
    // N = 512, window 400, maxLag 135, wrapped lags >= 377, i.e. 94 % of the window). Half the
    // cost of the zero-padded 1024-point transform, with no measurable change in the track.
    const maxLagEstimate = Math.ceil(sampleRate / params.floorHz) + 1;
    this.nFft = nextPow2(this.nWin + 1);
    if (this.nFft - maxLagEstimate < 0.9 * this.nWin) this.nFft *= 2;
    this.re = new Float64Array(this.nFft);
    this.im = new Float64Array(this.nFft);
    this.frame = new Float64Array(this.nWin);
    this.frame2 = new Float64Array(this.nWin);
    this.pa = new Float64Array(this.nFft / 2 + 1);
    this.pb = new Float64Array(this.nFft / 2 + 1);
    this.win = new Float64Array(this.nWin);
    for (let i = 0; i < this.nWin; i++)
      this.win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 1)) / (this.nWin + 1));
    this.minLag = Math.max(2, Math.floor(sampleRate / params.ceilingHz));
    this.maxLag = Math.min(Math.floor(this.nWin / 2), Math.ceil(sampleRate / params.floorHz) + 1);
    // Autocorrelation of the window itself, normalised to 1 at lag 0.
    this.winAc = new Float64Array(this.maxLag + 2);
    this.ac = new Float64Array(this.maxLag + 2);
    this.autocorrelatePair(this.win, null, this.nWin);
    for (let k = 0; k < this.winAc.length; k++) this.winAc[k] = this.re[k] / this.re[0];
  }

  /**
   * Autocorrelations of two real frames with one complex FFT pair: FFT(a + ib), split into the two
   * power spectra, then one inverse FFT of (Pa + iPb) whose real/imaginary parts are r_a and r_b.
   */
  private autocorrelatePair(a: Float64Array, b: Float64Array | null, n: number): void {
    const re = this.re;
    const im = this.im;
    const N = this.nFft;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < n; i++) re[i] = a[i];
    if (b) for (let i = 0; i < n; i++) im[i] = b[i];
    const fft = fftOfSize(N);
    fft.transform(re, im);
    powerPair(re, im, N, this.pa, this.pb);
    for (let k = 0; k <= N >> 1; k++) {
      re[k] = this.pa[k];
      im[k] = this.pb[k];
      if (k > 0 && k < N >> 1) {
        re[N - k] = this.pa[k];
        im[N - k] = this.pb[k];
      }
    }
    fft.transform(re, im, true);
  }

  private ensure(frames: number): void {
    if (frames <= this.capacity) return;
    const c = this.params.maxCandidates;
    this.capacity = frames;
    this.candF = new Float64Array(frames * c);
    this.candR = new Float64Array(frames * c);
    this.candN = new Int32Array(frames);
    this.localPeak = new Float64Array(frames);
    this.score = new Float64Array(frames * c);
    this.back = new Int32Array(frames * c);
  }

  /**
   * Track pitch over `frames` frames of `hop` samples; frame i is centred at sample (i + 0.5) * hop.
   * Writes into out (allocated by the caller).
   */
  track(x: Float32Array, hop: number, frames: number, out: PitchResult): void {
    this.ensure(frames);
    const n = x.length;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += x[i];
    mean = n > 0 ? mean / n : 0;
    let globalPeak = 0;
    for (let i = 0; i < n; i++) {
      const a = Math.abs(x[i] - mean);
      if (a > globalPeak) globalPeak = a;
    }
    // A frame this quiet can never be voiced on the best path: its unvoiced score exceeds
    // voicingThreshold + 1, while a voiced candidate scores at most 1 and saves at most two
    // voiced/unvoiced transition costs. Skipping its autocorrelation changes no result.
    const p = this.params;
    const silent =
      2 * p.voicedUnvoicedCost < p.voicingThreshold ? p.silenceThreshold / (1 + p.voicingThreshold) : 0;
    const quiet = (peak: number) => peak <= 0 || peak < silent * globalPeak;
    for (let f = 0; f < frames; f += 2) {
      const pa = this.prepareFrame(x, hop, f, globalPeak, this.frame);
      const pb = f + 1 < frames ? this.prepareFrame(x, hop, f + 1, globalPeak, this.frame2) : 0;
      const qa = quiet(pa);
      const qb = quiet(pb);
      if (!qa || !qb) this.autocorrelatePair(this.frame, f + 1 < frames ? this.frame2 : null, this.nWin);
      this.candidates(f, qa ? null : this.re);
      if (f + 1 < frames) this.candidates(f + 1, qb ? null : this.im);
    }
    this.viterbi(frames, out);
  }

  /** Copy, de-mean and window frame f into dst; returns its local peak (0 = silent frame). */
  private prepareFrame(
    x: Float32Array,
    hop: number,
    f: number,
    globalPeak: number,
    dst: Float64Array,
  ): number {
    const nWin = this.nWin;
    const n = x.length;
    const start = Math.round((f + 0.5) * hop) - (nWin >> 1);
    let local = 0;
    for (let i = 0; i < nWin; i++) {
      const j = start + i;
      const v = j >= 0 && j < n ? x[j] : 0;
      dst[i] = v;
      local += v;
    }
    local /= nWin;
    let peak = 0;
    for (let i = 0; i < nWin; i++) {
      const v = dst[i] - local;
      const av = v < 0 ? -v : v;
      if (av > peak) peak = av;
      dst[i] = v * this.win[i];
    }
    this.localPeak[f] = globalPeak > 0 ? peak / globalPeak : 0;
    return peak;
  }

  /** Candidates of frame f from its raw autocorrelation r (null = silent frame). */
  private candidates(f: number, r: Float64Array | null): void {
    const p = this.params;
    const C = p.maxCandidates;
    const base = f * C;
    // Candidate 0 is always "unvoiced".
    this.candF[base] = 0;
    this.candR[base] = 0;
    let nc = 1;
    if (r && r[0] > 0) {
      const ac = this.ac;
      const maxLag = this.maxLag;
      const r0 = r[0];
      // Normalise by lag-0 power and by the window autocorrelation (Boersma eq. 9).
      ac[0] = 1;
      for (let k = 1; k <= maxLag + 1; k++) ac[k] = r[k] / (r0 * this.winAc[k]);
      const thr = 0.5 * p.voicingThreshold;
      for (let k = this.minLag; k <= maxLag; k++) {
        const rk = ac[k];
        if (!(rk > thr && rk > ac[k - 1] && rk >= ac[k + 1])) continue;
        const dr = 0.5 * (ac[k + 1] - ac[k - 1]);
        const d2r = 2 * rk - ac[k - 1] - ac[k + 1];
        const shift = d2r > 0 ? dr / d2r : 0;
        const freq = this.sampleRate / (k + shift);
        let strength = d2r > 0 ? rk + (0.5 * dr * dr) / d2r : rk;
        // Peaks above 1 come from short windows; reflect them around 1 as Praat does.
        if (strength > 1) strength = 1 / strength;
        if (freq < p.floorHz || freq > p.ceilingHz) continue;
        const local = strength - p.octaveCost * Math.log2(p.ceilingHz / freq);
        if (nc < C) {
          this.candF[base + nc] = freq;
          this.candR[base + nc] = strength;
          nc++;
          continue;
        }
        // Full: replace the weakest voiced candidate when this one is stronger.
        let weakest = 1;
        let weakestLocal = Number.POSITIVE_INFINITY;
        for (let c = 1; c < C; c++) {
          const l = this.candR[base + c] - p.octaveCost * Math.log2(p.ceilingHz / this.candF[base + c]);
          if (l < weakestLocal) {
            weakestLocal = l;
            weakest = c;
          }
        }
        if (local > weakestLocal) {
          this.candF[base + weakest] = freq;
          this.candR[base + weakest] = strength;
        }
      }
    }
    this.candN[f] = nc;
  }

  private delta(f: number, c: number): number {
    const p = this.params;
    const freq = this.candF[f * p.maxCandidates + c];
    if (freq <= 0) {
      const u = 2 - this.localPeak[f] / (p.silenceThreshold / (1 + p.voicingThreshold));
      return p.voicingThreshold + Math.max(u, 0);
    }
    return this.candR[f * p.maxCandidates + c] - p.octaveCost * Math.log2(p.ceilingHz / freq);
  }

  private viterbi(frames: number, out: PitchResult): void {
    const p = this.params;
    const C = p.maxCandidates;
    const { candF, candR, candN, score, back } = this;
    if (frames === 0) return;
    for (let c = 0; c < candN[0]; c++) score[c] = this.delta(0, c);
    for (let f = 1; f < frames; f++) {
      const prevN = candN[f - 1];
      for (let c = 0; c < candN[f]; c++) {
        const f2 = candF[f * C + c];
        let best = Number.NEGATIVE_INFINITY;
        let arg = 0;
        for (let q = 0; q < prevN; q++) {
          const f1 = candF[(f - 1) * C + q];
          let cost: number;
          if (f2 <= 0) cost = f1 <= 0 ? 0 : p.voicedUnvoicedCost;
          else if (f1 <= 0) cost = p.voicedUnvoicedCost;
          else cost = p.octaveJumpCost * Math.abs(Math.log2(f1 / f2));
          const v = score[(f - 1) * C + q] - cost;
          if (v > best) {
            best = v;
            arg = q;
          }
        }
        score[f * C + c] = best + this.delta(f, c);
        back[f * C + c] = arg;
      }
    }
    let best = Number.NEGATIVE_INFINITY;
    let c = 0;
    const last = frames - 1;
    for (let q = 0; q < candN[last]; q++) {
      if (score[last * C + q] > best) {
        best = score[last * C + q];
        c = q;
      }
    }
    for (let f = last; f >= 0; f--) {
      const freq = candF[f * C + c];
      out.f0Hz[f] = freq;
      // Voicing: strength of the chosen candidate, or of the best voiced candidate when unvoiced.
      let r = candR[f * C + c];
      if (freq <= 0) for (let q = 1; q < candN[f]; q++) r = Math.max(r, candR[f * C + q]);
      out.voicing[f] = Math.min(1, Math.max(0, r));
      if (f > 0) c = back[f * C + c];
    }
  }
}
