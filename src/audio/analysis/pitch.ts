import { fftOfSize, nextPow2 } from './fft';

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
    this.nFft = nextPow2(Math.ceil(this.nWin * 1.5) + 1);
    this.re = new Float64Array(this.nFft);
    this.im = new Float64Array(this.nFft);
    this.frame = new Float64Array(this.nWin);
    this.win = new Float64Array(this.nWin);
    for (let i = 0; i < this.nWin; i++)
      this.win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 1)) / (this.nWin + 1));
    this.minLag = Math.max(2, Math.floor(sampleRate / params.ceilingHz));
    this.maxLag = Math.min(Math.floor(this.nWin / 2), Math.ceil(sampleRate / params.floorHz) + 1);
    // Autocorrelation of the window itself, normalised to 1 at lag 0.
    this.winAc = new Float64Array(this.maxLag + 2);
    this.autocorrelate(this.win, this.nWin);
    for (let k = 0; k < this.winAc.length; k++) this.winAc[k] = this.re[k] / this.re[0];
  }

  /** Autocorrelation of frame[0..n) into this.re[0..) (unnormalised), via |FFT|^2. */
  private autocorrelate(frame: Float64Array, n: number): void {
    const re = this.re;
    const im = this.im;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < n; i++) re[i] = frame[i];
    const fft = fftOfSize(this.nFft);
    fft.transform(re, im);
    for (let k = 0; k < this.nFft; k++) {
      re[k] = re[k] * re[k] + im[k] * im[k];
      im[k] = 0;
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
    const p = this.params;
    const C = p.maxCandidates;
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
    const nWin = this.nWin;
    const frame = this.frame;
    const re = this.re;
    for (let f = 0; f < frames; f++) {
      const centre = Math.round((f + 0.5) * hop);
      const start = centre - (nWin >> 1);
      let local = 0;
      let count = 0;
      for (let i = 0; i < nWin; i++) {
        const j = start + i;
        const v = j >= 0 && j < n ? x[j] : 0;
        frame[i] = v;
        local += v;
        count++;
      }
      local /= count;
      let peak = 0;
      for (let i = 0; i < nWin; i++) {
        const v = frame[i] - local;
        if (Math.abs(v) > peak) peak = Math.abs(v);
        frame[i] = v * this.win[i];
      }
      this.localPeak[f] = globalPeak > 0 ? peak / globalPeak : 0;
      // Candidate 0 is always "unvoiced".
      const base = f * C;
      this.candF[base] = 0;
      this.candR[base] = 0;
      let nc = 1;
      if (peak > 0) {
        this.autocorrelate(frame, nWin);
        const r0 = re[0];
        const maxLag = this.maxLag;
        // Normalise by lag-0 power and by the window autocorrelation (Boersma eq. 9).
        for (let k = 1; k <= maxLag + 1 && k < this.winAc.length; k++) re[k] = re[k] / (r0 * this.winAc[k]);
        re[0] = 1;
        const thr = 0.5 * p.voicingThreshold;
        for (let k = this.minLag; k <= maxLag; k++) {
          const r = re[k];
          if (r > thr && r > re[k - 1] && r >= re[k + 1]) {
            const dr = 0.5 * (re[k + 1] - re[k - 1]);
            const d2r = 2 * r - re[k - 1] - re[k + 1];
            const shift = d2r > 0 ? dr / d2r : 0;
            const freq = this.sampleRate / (k + shift);
            let strength = d2r > 0 ? r + (0.5 * dr * dr) / d2r : r;
            // Peaks above 1 come from short windows; reflect them around 1 as Praat does.
            if (strength > 1) strength = 1 / strength;
            if (freq < p.floorHz || freq > p.ceilingHz) continue;
            const local = strength - p.octaveCost * Math.log2(p.ceilingHz / freq);
            if (nc < C) {
              this.candF[base + nc] = freq;
              this.candR[base + nc] = strength;
              nc++;
            } else {
              // Replace the weakest voiced candidate when this one is stronger.
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
        }
      }
      this.candN[f] = nc;
    }
    this.viterbi(frames, out);
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
