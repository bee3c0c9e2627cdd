/**
 * Streaming rational resampler (polyphase, Kaiser-windowed sinc), e.g. 48 kHz or 44.1 kHz → 16 kHz.
 *
 * Why not linear interpolation: it folds everything above 8 kHz back into the speech band.
 * This filter keeps the passband (≤ 7 kHz at 16 kHz out) flat to a few thousandths of a dB and
 * attenuates everything above the output Nyquist frequency by ~80 dB (see tests/unit/audio/resample.test.ts).
 *
 * Timing is exact and zero-phase: output sample n is the band-limited input evaluated at input time
 * n · inRate / outRate, so output index ↔ capture frame index is a fixed ratio (the window slicer and
 * the clock rely on this). The price is a look-ahead of half the filter length, held inside until
 * more input arrives or `flush()` pads with zeros.
 *
 * All state is allocated up front: `process()` writes into a caller-provided output and only grows
 * its history if handed a chunk longer than any before (pitchy-style pre-allocation). The filter bank
 * and the history live in one dot-product kernel's memory (./dot.ts: WebAssembly SIMD, or JS where
 * that cannot run), and each output sample is one dot product of a phase with the history.
 */
import { createDotKernel, DOT_BLOCK, type DotKernel, padToDotBlock } from './dot';
import { besselI0, kaiserBeta, kaiserTaps, sinc } from './kaiser';

export interface ResamplerOptions {
  /** Stopband attenuation the filter is designed for (dB). */
  attenuationDb?: number;
  /** Passband edge as a fraction of the lower Nyquist frequency (7 kHz / 8 kHz = 0.875). */
  passbandFraction?: number;
  /** Largest chunk `process()` will be given; the history buffer is sized for it. */
  maxChunk?: number;
  /** false: the JS dot-product kernel even where WebAssembly SIMD runs (tests compare both). */
  simd?: boolean;
}

/** Largest polyphase bank we accept (phases): 44.1 → 16 kHz needs 160, 22.05 → 16 kHz needs 320. */
const MAX_PHASES = 4096;

export class ResampleError extends Error {
  readonly code = 'BAD_RESAMPLE';
  constructor(message: string) {
    super(message);
    this.name = 'ResampleError';
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export class StreamingResampler {
  readonly inRate: number;
  readonly outRate: number;
  /** Upsampling factor L and downsampling factor M (outRate / inRate = L / M, reduced). */
  readonly up: number;
  readonly down: number;
  /** Taps per phase; output n reads inputs [i - half + 1, i + half]. */
  readonly taps: number;
  private readonly half: number;
  /** Taps rounded up to the kernel's block; the extra coefficients are zero. */
  private readonly stride: number;
  /**
   * Kernel memory: phase p's coefficients at [p · stride, (p + 1) · stride), coefficient k weighing
   * input (i - half + 1 + k); then the input history from `historyAt`, whose first sample is absolute
   * input index `historyStart`, followed by at least DOT_BLOCK zeros (read, times zero coefficients).
   */
  private readonly kernel: DotKernel;
  private readonly historyAt: number;
  private historyCapacity: number;
  private historyLength = 0;
  private historyStart: number;
  /** Next output: integer input position `pos` and phase `phase` (time = pos + phase / up). */
  private pos = 0;
  private phase = 0;
  private produced = 0;
  private consumed = 0;

  constructor(inRate: number, outRate: number, options: ResamplerOptions = {}) {
    if (!Number.isInteger(inRate) || !Number.isInteger(outRate) || inRate <= 0 || outRate <= 0) {
      throw new ResampleError(`Sample rates must be positive integers (got ${inRate} → ${outRate}).`);
    }
    const g = gcd(inRate, outRate);
    this.inRate = inRate;
    this.outRate = outRate;
    this.up = outRate / g;
    this.down = inRate / g;
    if (this.up > MAX_PHASES) {
      throw new ResampleError(
        `Cannot resample ${inRate} Hz → ${outRate} Hz: the ratio needs ${this.up} filter phases ` +
          `(limit ${MAX_PHASES}). Use a standard capture rate such as 44100 or 48000 Hz.`,
      );
    }
    const attenuation = options.attenuationDb ?? 80;
    const passband = options.passbandFraction ?? 0.875;
    // Filter designed at the input rate; the cutoff sits on the lower of the two Nyquist frequencies.
    const nyquist = Math.min(inRate, outRate) / 2;
    const passEdge = passband * nyquist;
    const cutoff = (passEdge + nyquist) / 2;
    const transition = (nyquist - passEdge) / inRate;
    let taps = kaiserTaps(attenuation, transition);
    taps += taps % 2; // even, so the window is centred between history[half-1] and history[half]
    this.taps = taps;
    this.half = taps / 2;
    const beta = kaiserBeta(attenuation);
    const i0Beta = besselI0(beta);
    const fc = cutoff / inRate; // cycles per input sample
    // When upsampling, the interpolation itself must keep unit gain per output: scale stays 2·fc·(…).
    this.stride = padToDotBlock(taps);
    const maxChunk = options.maxChunk ?? 8192;
    this.historyAt = this.up * this.stride;
    this.historyCapacity = taps + maxChunk;
    this.kernel = createDotKernel(this.historyAt + this.historyCapacity + DOT_BLOCK, { simd: options.simd });
    const bank = this.kernel.f32;
    for (let p = 0; p < this.up; p++) {
      const frac = p / this.up;
      const row = p * this.stride;
      let sum = 0;
      for (let k = 0; k < taps; k++) {
        // Distance (in input samples) from the output time to input (i - half + 1 + k).
        const t = frac + this.half - 1 - k;
        const r = t / this.half;
        const w = Math.abs(r) >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / i0Beta;
        const c = 2 * fc * sinc(2 * fc * t) * w;
        bank[row + k] = c;
        sum += c;
      }
      // Normalise each phase to exactly unit DC gain, so no phase adds a ripple at the phase rate.
      for (let k = 0; k < taps; k++) bank[row + k] /= sum;
    }
    // Zeros before the first sample: output 0 is defined at input time 0.
    this.historyStart = -(this.half - 1);
    this.historyLength = this.half - 1;
  }

  /** Which dot-product kernel runs: 'simd' (WebAssembly) or 'js'. */
  get kernelKind(): 'simd' | 'js' {
    return this.kernel.kind;
  }

  /** Output samples that `process(input of length n)` can produce at most. */
  maxOutput(inputLength: number): number {
    return Math.ceil(((inputLength + this.taps) * this.up) / this.down) + 1;
  }

  /** Input samples taken so far / output samples produced so far. */
  get inputCount(): number {
    return this.consumed;
  }
  get outputCount(): number {
    return this.produced;
  }

  /** Output index whose time is input index `inputFrame` (not rounded). */
  inputToOutputIndex(inputFrame: number): number {
    return (inputFrame * this.up) / this.down;
  }

  /**
   * Feeds `input`, writes as many finished outputs as possible into `out` starting at 0, returns how many.
   * `out` must hold at least `maxOutput(input.length)` samples.
   */
  process(input: Float32Array, out: Float32Array): number {
    this.append(input);
    this.consumed += input.length;
    return this.drain(out, 0);
  }

  /** Pads with zeros so every output up to the last input time is produced. Ends the stream. */
  flush(out: Float32Array): number {
    const lastOutput = Math.ceil((this.consumed * this.up) / this.down); // outputs with time < consumed
    const pad = new Float32Array(this.half);
    this.append(pad);
    let written = this.drain(out, 0);
    // drain stops once the padded look-ahead runs out; never emit past the end of the real input.
    if (this.produced > lastOutput) {
      written -= this.produced - lastOutput;
      this.produced = lastOutput;
    }
    return Math.max(0, written);
  }

  private append(input: Float32Array): void {
    const needed = this.historyLength + input.length;
    if (needed > this.historyCapacity) {
      this.historyCapacity = Math.max(needed, this.historyCapacity * 2);
      this.kernel.reserve(this.historyAt + this.historyCapacity + DOT_BLOCK);
    }
    const memory = this.kernel.f32;
    const end = this.historyAt + needed;
    memory.set(input, end - input.length);
    // The last dot products read up to DOT_BLOCK - 1 floats past the history: make them zeros.
    memory.fill(0, end, end + DOT_BLOCK);
    this.historyLength = needed;
  }

  private drain(out: Float32Array, offset: number): number {
    const { half, up, down, stride, kernel, historyAt } = this;
    const dot = kernel.dot;
    let written = offset;
    let pos = this.pos;
    let phase = this.phase;
    const available = this.historyStart + this.historyLength; // absolute index one past the last input
    // Output at time pos + phase/up needs inputs pos - half + 1 … pos + half.
    const first = historyAt - half + 1 - this.historyStart; // memory index of input pos - half + 1, minus pos
    while (pos + half < available) {
      out[written++] = dot(first + pos, phase * stride, stride);
      phase += down;
      if (phase >= up) {
        const advance = Math.floor(phase / up);
        pos += advance;
        phase -= advance * up;
      }
    }
    this.pos = pos;
    this.phase = phase;
    this.produced += written - offset;
    // Keep only the history the next output needs.
    const keepFrom = pos - half + 1 - this.historyStart;
    if (keepFrom > 0) {
      const memory = kernel.f32;
      memory.copyWithin(historyAt, historyAt + keepFrom, historyAt + this.historyLength);
      this.historyLength -= keepFrom;
      this.historyStart += keepFrom;
      const end = historyAt + this.historyLength;
      memory.fill(0, end, end + DOT_BLOCK);
    }
    return written - offset;
  }
}

/** One-shot helper for whole buffers (tests, bench, server). */
export function resample(
  input: Float32Array,
  inRate: number,
  outRate: number,
  options: Pick<ResamplerOptions, 'simd'> = {},
): Float32Array {
  if (inRate === outRate) return input.slice();
  const r = new StreamingResampler(inRate, outRate, { maxChunk: input.length, ...options });
  const out = new Float32Array(r.maxOutput(input.length) + r.maxOutput(r.taps));
  let n = r.process(input, out);
  n += r.flush(out.subarray(n));
  return out.slice(0, n);
}
