/**
 * Local jitter and shimmer from glottal-pulse estimates. Pulses are the positive waveform maxima,
 * found period by period along the pitch track inside each voiced stretch (search window
 * 0.8–1.2 of the local period, parabolic refinement). Pairs whose periods differ by more than a
 * factor 1.3 are skipped, as in Praat's default "maximum period factor".
 */
export interface Perturbation {
  /** Mean absolute difference of consecutive periods divided by the mean period (fraction). */
  jitterLocal: number | null;
  /** Mean absolute dB difference of consecutive pulse peak amplitudes. */
  shimmerLocalDb: number | null;
  periods: number;
}

const MAX_PERIOD_FACTOR = 1.3;

export function measurePerturbation(
  x: Float32Array,
  sampleRate: number,
  hop: number,
  f0: Float32Array,
  frames: number,
  minHz: number,
  maxHz: number,
): Perturbation {
  let jitterSum = 0;
  let periodSum = 0;
  let jitterPairs = 0;
  let shimmerSum = 0;
  let shimmerPairs = 0;
  let periods = 0;
  const n = x.length;
  let f = 0;
  while (f < frames) {
    if (f0[f] <= 0) {
      f++;
      continue;
    }
    let e = f;
    while (e < frames && f0[e] > 0) e++;
    // Voiced stretch [f, e): sample span.
    const spanStart = Math.max(0, Math.round(f * hop));
    const spanEnd = Math.min(n - 1, Math.round(e * hop));
    let T = sampleRate / f0[f];
    // First pulse: maximum within the first period.
    let pos = argMax(x, spanStart, Math.min(spanEnd, spanStart + Math.ceil(T)));
    let prevT = 0;
    let prevA = x[pos];
    let prevPos = pos;
    let prevPrecise = refine(x, pos);
    while (true) {
      const frame = Math.min(frames - 1, Math.floor(prevPos / hop));
      const hz = f0[frame] > 0 ? f0[frame] : sampleRate / T;
      T = sampleRate / hz;
      const lo = Math.round(prevPos + 0.8 * T);
      const hi = Math.round(prevPos + 1.2 * T);
      if (hi > spanEnd) break;
      pos = argMax(x, lo, hi);
      const precise = refine(x, pos);
      const period = precise - prevPrecise;
      const amp = x[pos];
      const periodS = period / sampleRate;
      const valid = periodS >= 1 / maxHz && periodS <= 1 / minHz;
      if (valid) {
        periods++;
        if (prevT > 0 && Math.max(period, prevT) / Math.min(period, prevT) <= MAX_PERIOD_FACTOR) {
          jitterSum += Math.abs(period - prevT);
          periodSum += period;
          jitterPairs++;
        }
        if (amp > 0 && prevA > 0) {
          shimmerSum += Math.abs(20 * Math.log10(amp / prevA));
          shimmerPairs++;
        }
      }
      prevT = valid ? period : 0;
      prevA = amp;
      prevPos = pos;
      prevPrecise = precise;
    }
    f = e;
  }
  return {
    jitterLocal: jitterPairs > 2 && periodSum > 0 ? jitterSum / periodSum : null,
    shimmerLocalDb: shimmerPairs > 2 ? shimmerSum / shimmerPairs : null,
    periods,
  };
}

function argMax(x: Float32Array, lo: number, hi: number): number {
  let best = lo;
  for (let i = lo + 1; i <= hi; i++) if (x[i] > x[best]) best = i;
  return best;
}

function refine(x: Float32Array, i: number): number {
  if (i <= 0 || i >= x.length - 1) return i;
  const a = x[i - 1];
  const b = x[i];
  const c = x[i + 1];
  const d = a - 2 * b + c;
  return d < 0 ? i + (0.5 * (a - c)) / d : i;
}
