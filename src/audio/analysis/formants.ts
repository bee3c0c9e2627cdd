/**
 * Formants F1–F3 by LPC (run on the 8 kHz signal, 10 poles): pre-emphasised, Hamming-windowed 25 ms
 * frames, autocorrelation method
 * (Levinson–Durbin), roots of the predictor polynomial by Durand–Kerner iteration warm-started from
 * the previous frame's roots (so a voiced stretch converges in a few iterations).
 */
const ORDER = 10;
const FRAME_SECONDS = 0.025;
const MAX_ITER = 60;

export class FormantAnalyzer {
  private readonly sampleRate: number;
  private readonly win: Float64Array;
  private readonly buf: Float64Array;
  private readonly r = new Float64Array(ORDER + 1);
  private readonly a = new Float64Array(ORDER + 1);
  private readonly tmp = new Float64Array(ORDER + 1);
  private readonly zr = new Float64Array(ORDER);
  private readonly zi = new Float64Array(ORDER);
  private warm = false;
  private readonly found = new Float64Array(ORDER);

  constructor(sampleRate: number) {
    this.sampleRate = sampleRate;
    const n = Math.round(FRAME_SECONDS * sampleRate);
    this.win = new Float64Array(n);
    for (let i = 0; i < n; i++) this.win[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (n - 1));
    this.buf = new Float64Array(n);
  }

  private resetRoots(): void {
    // Distinct starting points spread inside the unit circle.
    for (let k = 0; k < ORDER; k++) {
      const ang = (Math.PI * (k + 0.5)) / ORDER + 0.1;
      this.zr[k] = 0.9 * Math.cos(ang * (k % 2 === 0 ? 1 : -1));
      this.zi[k] = 0.9 * Math.sin(ang * (k % 2 === 0 ? 1 : -1));
    }
  }

  /**
   * Writes F1..F3 (Hz, 0 = not found) for frames where mask[f] is true; other frames get 0.
   * out arrays must hold `frames` values.
   */
  run(
    x: Float32Array,
    hop: number,
    frames: number,
    mask: Uint8Array,
    f1: Float32Array,
    f2: Float32Array,
    f3: Float32Array,
  ): void {
    const N = this.win.length;
    const n = x.length;
    this.warm = false;
    for (let f = 0; f < frames; f++) {
      f1[f] = 0;
      f2[f] = 0;
      f3[f] = 0;
      if (!mask[f]) {
        this.warm = false;
        continue;
      }
      const start = Math.round((f + 0.5) * hop) - (N >> 1);
      let prev = 0;
      for (let i = 0; i < N; i++) {
        const j = start + i;
        const v = j >= 0 && j < n ? x[j] : 0;
        this.buf[i] = (v - 0.97 * prev) * this.win[i];
        prev = v;
      }
      if (!lpc(this.buf, ORDER, this.a, this.r, this.tmp)) {
        this.warm = false;
        continue;
      }
      if (!this.warm) this.resetRoots();
      this.roots();
      this.warm = true;
      let count = 0;
      const fs = this.sampleRate;
      for (let k = 0; k < ORDER; k++) {
        if (this.zi[k] <= 0) continue;
        const mag = Math.hypot(this.zr[k], this.zi[k]);
        const freq = (Math.atan2(this.zi[k], this.zr[k]) * fs) / (2 * Math.PI);
        const bw = (-Math.log(mag) * fs) / Math.PI;
        if (freq > 90 && freq < fs / 2 - 90 && bw < 500 && bw > 0) this.found[count++] = freq;
      }
      const sorted = this.found.subarray(0, count).sort();
      if (count > 0) f1[f] = sorted[0];
      if (count > 1) f2[f] = sorted[1];
      if (count > 2) f3[f] = sorted[2];
    }
  }

  /** Durand–Kerner on z^p + a1 z^(p-1) + ... + ap. */
  private roots(): void {
    const { a, zr, zi } = this;
    for (let it = 0; it < MAX_ITER; it++) {
      let maxStep = 0;
      for (let i = 0; i < ORDER; i++) {
        // p(z) by Horner.
        let pr = 1;
        let pi = 0;
        const xr = zr[i];
        const xi = zi[i];
        for (let k = 1; k <= ORDER; k++) {
          const nr = pr * xr - pi * xi + a[k];
          pi = pr * xi + pi * xr;
          pr = nr;
        }
        // Product of (z_i - z_j).
        let qr = 1;
        let qi = 0;
        for (let j = 0; j < ORDER; j++) {
          if (j === i) continue;
          const dr = xr - zr[j];
          const di = xi - zi[j];
          const nr = qr * dr - qi * di;
          qi = qr * di + qi * dr;
          qr = nr;
        }
        const den = qr * qr + qi * qi;
        if (den < 1e-300) {
          zr[i] += 1e-6;
          continue;
        }
        const sr = (pr * qr + pi * qi) / den;
        const si = (pi * qr - pr * qi) / den;
        zr[i] = xr - sr;
        zi[i] = xi - si;
        const step = Math.abs(sr) + Math.abs(si);
        if (step > maxStep) maxStep = step;
      }
      if (maxStep < 1e-7) break;
    }
  }
}

/**
 * LPC coefficients a[0..p] (a[0] = 1) of a frame: autocorrelation, then Levinson–Durbin, into `a`
 * (`r` and `tmp` are scratch of length p + 1). False when the frame is silent or the recursion fails.
 */
export function lpc(
  frame: Float64Array,
  p: number,
  a: Float64Array,
  r: Float64Array,
  tmp: Float64Array,
): boolean {
  const n = frame.length;
  for (let k = 0; k <= p; k++) {
    let s = 0;
    for (let i = k; i < n; i++) s += frame[i] * frame[i - k];
    r[k] = s;
  }
  if (r[0] <= 1e-12) return false;
  r[0] *= 1 + 1e-9; // white-noise correction keeps the recursion stable
  a.fill(0);
  a[0] = 1;
  let err = r[0];
  for (let i = 1; i <= p; i++) {
    let acc = r[i];
    for (let j = 1; j < i; j++) acc += a[j] * r[i - j];
    const k = -acc / err;
    tmp.set(a);
    for (let j = 1; j < i; j++) a[j] = tmp[j] + k * tmp[i - j];
    a[i] = k;
    err *= 1 - k * k;
    if (err <= 0) return false;
  }
  return true;
}
