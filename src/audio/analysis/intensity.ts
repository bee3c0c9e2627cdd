/**
 * Short-time intensity in dB re full scale: Hann-weighted mean square of a 32 ms frame (the
 * 3.2 / 100 Hz window of Praat's "To Intensity" with its default minimum pitch), mean removed.
 * A full-scale sine reads -3 dB; add 93.98 dB for Praat's "dB SPL" (samples taken as pascals).
 */
export const INTENSITY_WINDOW_SECONDS = 0.032;
/** Floor for silent frames so that digital silence does not produce -Infinity. */
export const INTENSITY_FLOOR_DB = -120;

export class IntensityAnalyzer {
  private readonly win: Float64Array;
  private readonly winSum: number;

  constructor(sampleRate: number) {
    const n = Math.round(INTENSITY_WINDOW_SECONDS * sampleRate);
    this.win = new Float64Array(n);
    let s = 0;
    for (let i = 0; i < n; i++) {
      this.win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / n);
      s += this.win[i];
    }
    this.winSum = s;
  }

  run(x: Float32Array, hop: number, frames: number, out: Float32Array): void {
    const w = this.win;
    const N = w.length;
    const n = x.length;
    for (let f = 0; f < frames; f++) {
      const start = Math.round((f + 0.5) * hop) - (N >> 1);
      // One pass: weighted mean square minus the squared weighted mean (the mean is removed).
      let sum = 0;
      let sumSq = 0;
      const lo = Math.max(0, -start);
      const hi = Math.min(N, n - start);
      for (let i = lo; i < hi; i++) {
        const v = x[start + i];
        const wv = w[i] * v;
        sum += wv;
        sumSq += wv * v;
      }
      const mean = sum / this.winSum;
      const ms = sumSq / this.winSum - mean * mean;
      out[f] = ms > 1e-12 ? Math.max(INTENSITY_FLOOR_DB, 10 * Math.log10(ms)) : INTENSITY_FLOOR_DB;
    }
  }
}
