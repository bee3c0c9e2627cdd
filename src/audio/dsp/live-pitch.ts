/**
 * Cheap pitch estimate for the live trace while recording (not the scorer: that is
 * src/audio/analysis/pitch.ts, Boersma's method with a Viterbi path). One normalised autocorrelation
 * over the last frame, parabolic peak refinement, no allocation after construction.
 *
 * Cost: the estimate runs ten times a second of audio inside the encoder worker, and was the largest
 * part of the worker's time (docs/performance.md). Each lag's cross product is one dot product of the
 * frame with itself shifted (./dot.ts), and both energies of the normalisation come from one prefix
 * sum of squares, so a lag costs one pass instead of three.
 */
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../constants';
import { createDotKernel, DOT_BLOCK, type DotKernel, padToDotBlock } from './dot';
import { writeRing } from './ring';

export class LivePitch {
  /** Ring of the last `n` samples; `write` is where the next one goes (so also the oldest). */
  private readonly frame: Float32Array;
  private readonly minLag: number;
  private readonly maxLag: number;
  private readonly corr: Float64Array;
  /** squares[i] = Σ x[j]² for j < i, over the frame in time order. */
  private readonly squares: Float64Array;
  /** The frame in time order at [0, n), then DOT_BLOCK zeros (read by the last dot products). */
  private readonly kernel: DotKernel;
  private filled = 0;
  private write = 0;

  constructor(
    readonly sampleRate: number,
    frameSeconds = 0.04,
    options: { simd?: boolean } = {},
  ) {
    this.minLag = Math.floor(sampleRate / PITCH_MAX_HZ);
    this.maxLag = Math.ceil(sampleRate / PITCH_MIN_HZ);
    this.corr = new Float64Array(this.maxLag + 3);
    // Two periods of the lowest pitch at least.
    this.frame = new Float32Array(Math.max(Math.round(sampleRate * frameSeconds), 2 * this.maxLag + 1));
    this.squares = new Float64Array(this.frame.length + 1);
    this.kernel = createDotKernel(padToDotBlock(this.frame.length) + DOT_BLOCK, options);
  }

  push(samples: Float32Array, length = samples.length): void {
    this.write = writeRing(this.frame, this.write, samples, length);
    this.filled = Math.min(this.frame.length, this.filled + length);
  }

  /** Hz, or null when the frame is quiet or not periodic enough. */
  estimate(minClarity = 0.6, silenceRms = 0.01): number | null {
    const n = this.frame.length;
    if (this.filled < n) return null;
    const x = this.kernel.f32;
    x.set(this.frame.subarray(this.write), 0);
    x.set(this.frame.subarray(0, this.write), n - this.write);
    const sq = this.squares;
    for (let i = 0; i < n; i++) sq[i + 1] = sq[i] + x[i] * x[i];
    if (Math.sqrt(sq[n] / n) < silenceRms) return null;
    const r = this.corr;
    const dot = this.kernel.dot;
    let globalBest = 0;
    for (let lag = this.minLag - 1; lag <= this.maxLag + 1; lag++) {
      const acc = dot(0, lag, padToDotBlock(n - lag));
      const e1 = sq[n - lag];
      const e2 = sq[n] - sq[lag];
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
