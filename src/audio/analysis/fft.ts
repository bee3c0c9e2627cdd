/**
 * In-place iterative radix-2 complex FFT with pre-computed twiddles and bit-reversal table.
 * One instance per size; no allocation per call (STYLE: DSP pre-allocates its buffers).
 */
export class Fft {
  readonly size: number;
  /** Twiddles of every stage laid out contiguously: stage with half-size h starts at h - 1. */
  private readonly twRe: Float64Array;
  private readonly twIm: Float64Array;
  private readonly rev: Uint32Array;

  constructor(size: number) {
    if (size < 2 || (size & (size - 1)) !== 0)
      throw new Error(`FFT size must be a power of two, got ${size}`);
    this.size = size;
    this.twRe = new Float64Array(size);
    this.twIm = new Float64Array(size);
    for (let half = 1; half < size; half <<= 1) {
      for (let k = 0; k < half; k++) {
        this.twRe[half - 1 + k] = Math.cos((Math.PI * k) / half);
        this.twIm[half - 1 + k] = -Math.sin((Math.PI * k) / half);
      }
    }
    this.rev = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
  }

  /** Forward transform (sign -1) of re + i*im, in place. Pass inverse=true for the unscaled inverse. */
  transform(re: Float64Array, im: Float64Array, inverse = false): void {
    const n = this.size;
    const rev = this.rev;
    for (let i = 0; i < n; i++) {
      const j = rev[i];
      if (j > i) {
        const tr = re[i];
        re[i] = re[j];
        re[j] = tr;
        const ti = im[i];
        im[i] = im[j];
        im[j] = ti;
      }
    }
    const twRe = this.twRe;
    const twIm = this.twIm;
    const sgn = inverse ? -1 : 1;
    for (let half = 1; half < n; half <<= 1) {
      const len = half << 1;
      const base = half - 1;
      for (let k = 0; k < half; k++) {
        const wr = twRe[base + k];
        const wi = sgn * twIm[base + k];
        for (let a = k; a < n; a += len) {
          const b = a + half;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  }
}

/**
 * After transform() of x + i*y (x, y real), the power spectra of x and of y for bins 0..n/2:
 * X_k = (Z_k + conj Z_(n-k)) / 2, Y_k = (Z_k - conj Z_(n-k)) / 2i. Two real frames per FFT.
 */
export function powerPair(
  re: Float64Array,
  im: Float64Array,
  n: number,
  px: Float64Array,
  py: Float64Array,
): void {
  for (let k = 0; k <= n >> 1; k++) {
    const j = k === 0 ? 0 : n - k;
    const ar = re[k] + re[j];
    const ai = im[k] - im[j];
    const br = re[k] - re[j];
    const bi = im[k] + im[j];
    px[k] = 0.25 * (ar * ar + ai * ai);
    py[k] = 0.25 * (br * br + bi * bi);
  }
}

const cache = new Map<number, Fft>();

/** Shared FFT instance for a size (twiddles are read-only, so sharing is safe). */
export function fftOfSize(size: number): Fft {
  let f = cache.get(size);
  if (!f) {
    f = new Fft(size);
    cache.set(size, f);
  }
  return f;
}

export function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p <<= 1;
  return p;
}
