/**
 * Cheap pitch estimate for the live trace while recording (not the scorer: that is
 * src/audio/analysis/pitch.ts, Boersma's method with a Viterbi path). One normalised autocorrelation
 * over the last frame, parabolic peak refinement, no allocation after construction.
 */
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../constants';

export class LivePitch {
  private readonly frame: Float32Array;
  private readonly minLag: number;
  private readonly maxLag: number;
  private readonly corr: Float64Array;
  private filled = 0;
  private write = 0;

  constructor(
    readonly sampleRate: number,
    frameSeconds = 0.04,
  ) {
    this.minLag = Math.floor(sampleRate / PITCH_MAX_HZ);
    this.maxLag = Math.ceil(sampleRate / PITCH_MIN_HZ);
    this.corr = new Float64Array(this.maxLag + 3);
    // Two periods of the lowest pitch at least.
    this.frame = new Float32Array(Math.max(Math.round(sampleRate * frameSeconds), 2 * this.maxLag + 1));
  }

  push(samples: Float32Array, length = samples.length): void {
    const n = this.frame.length;
    for (let i = 0; i < length; i++) {
      this.frame[this.write] = samples[i];
      this.write = (this.write + 1) % n;
    }
    this.filled = Math.min(n, this.filled + length);
  }

  /** Hz, or null when the frame is quiet or not periodic enough. */
  estimate(minClarity = 0.6, silenceRms = 0.01): number | null {
    const n = this.frame.length;
    if (this.filled < n) return null;
    const x = this.frame;
    const at = (i: number) => x[(this.write + i) % n];
    let energy = 0;
    for (let i = 0; i < n; i++) energy += at(i) * at(i);
    if (Math.sqrt(energy / n) < silenceRms) return null;
    const r = this.corr;
    let globalBest = 0;
    for (let lag = this.minLag - 1; lag <= this.maxLag + 1; lag++) {
      let acc = 0;
      let e1 = 0;
      let e2 = 0;
      for (let i = 0; i + lag < n; i++) {
        const a = at(i);
        const b = at(i + lag);
        acc += a * b;
        e1 += a * a;
        e2 += b * b;
      }
      r[lag] = acc / Math.sqrt(e1 * e2 || 1);
      if (lag >= this.minLag && lag <= this.maxLag) globalBest = Math.max(globalBest, r[lag]);
    }
    // McLeod & Wyvill's rule: the first peak close to the best one, so a period's multiples
    // (which correlate just as well) do not win and halve the pitch.
    let bestLag = -1;
    for (let lag = this.minLag; lag <= this.maxLag; lag++) {
      if (r[lag] > r[lag - 1] && r[lag] >= r[lag + 1] && r[lag] >= 0.9 * globalBest) {
        bestLag = lag;
        break;
      }
    }
    if (bestLag < 0 || r[bestLag] < minClarity) return null;
    // Parabola through the peak and its neighbours for a sub-sample period.
    const left = r[bestLag - 1];
    const right = r[bestLag + 1];
    const denom = left - 2 * r[bestLag] + right;
    const shift = denom === 0 ? 0 : (0.5 * (left - right)) / denom;
    return this.sampleRate / (bestLag + shift);
  }
}
