/**
 * Time-domain pitch-synchronous overlap-add (TD-PSOLA; Moulines & Charpentier 1990), pure.
 *
 * The input is cut into two-period Hann-windowed grains centred on its pitch marks (epochs); the
 * output places one grain per output period, so pitch follows the spacing of the output marks while
 * each grain keeps the input's spectral envelope (formants, i.e. the speaker's timbre). Time is
 * changed by choosing which input grain each output mark takes (`sourceTime`), so duration and pitch
 * move independently. Unvoiced stretches use fixed 10 ms pseudo-periods, which keeps noise as noise.
 */

/** Pitch marks of a signal: sample positions, the local period at each, and whether it is voiced. */
export interface PitchMarks {
  position: Int32Array;
  period: Float64Array;
  voiced: Uint8Array;
}

/** What the output should be, as functions of output time (seconds). */
export interface PsolaPlan {
  /** Output length in samples. */
  outputLength: number;
  /** The input time (s) whose grain an output mark at `tOut` takes: monotone non-decreasing. */
  sourceTime(tOut: number): number;
  /** Target f0 (Hz) at `tOut`; 0 or NaN keeps the input's own period there. */
  targetF0(tOut: number): number;
  /** Linear gain applied to the grain placed at `tOut`. */
  gain(tOut: number): number;
}

/** Pseudo-period of unvoiced stretches (s): short enough to keep noise bursts in place. */
export const UNVOICED_PERIOD_SECONDS = 0.01;

/**
 * Pitch marks from an f0 track (Hz per frame, 0 unvoiced; frame i centred at (i + 0.5) × hop).
 * Each voiced mark sits on the largest absolute sample within ±25 % of a period of where the previous
 * mark and the local period predict it, so grains are centred on the glottal pulses.
 */
export function pitchMarks(
  x: Float32Array,
  sampleRate: number,
  f0Hz: ArrayLike<number>,
  hopSeconds: number,
): PitchMarks {
  const position: number[] = [];
  const period: number[] = [];
  const voiced: number[] = [];
  const unvoicedStep = Math.max(1, Math.round(UNVOICED_PERIOD_SECONDS * sampleRate));
  const f0At = (n: number): number => {
    const frame = Math.min(f0Hz.length - 1, Math.max(0, Math.floor(n / sampleRate / hopSeconds)));
    const f = f0Hz.length > 0 ? f0Hz[frame] : 0;
    return f > 0 && Number.isFinite(f) ? f : 0;
  };
  let n = 0;
  let lastVoiced = false;
  // Marks of one voiced stretch follow one polarity (the sign of its first pulse): a waveform with a
  // positive and a negative peak per period would otherwise have its marks hop between the two.
  let polarity = 1;
  while (n < x.length) {
    const f = f0At(n);
    if (f === 0) {
      position.push(n);
      period.push(unvoicedStep);
      voiced.push(0);
      n += unvoicedStep;
      lastVoiced = false;
      continue;
    }
    const p = sampleRate / f;
    // The first mark of a voiced stretch searches a whole period; later ones ±25 % of one.
    const half = lastVoiced ? Math.max(1, Math.round(p * 0.25)) : Math.round(p / 2);
    const centre = lastVoiced ? n : n + Math.round(p / 2);
    const from = Math.max(0, centre - half);
    const to = Math.min(x.length - 1, centre + half);
    if (!lastVoiced) {
      let peak = 0;
      for (let i = from; i <= to; i++) if (Math.abs(x[i]) > Math.abs(peak)) peak = x[i];
      polarity = peak < 0 ? -1 : 1;
    }
    let best = Math.min(Math.max(centre, 0), x.length - 1);
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = from; i <= to; i++) {
      const v = polarity * x[i];
      if (v > bestValue) {
        bestValue = v;
        best = i;
      }
    }
    // Never step backwards past the previous mark.
    const prev = position.length > 0 ? position[position.length - 1] : -1;
    if (best <= prev) best = prev + Math.max(1, Math.round(p));
    if (best >= x.length) break;
    position.push(best);
    period.push(p);
    voiced.push(1);
    n = best + Math.round(p);
    lastVoiced = true;
  }
  return {
    position: Int32Array.from(position),
    period: Float64Array.from(period),
    voiced: Uint8Array.from(voiced),
  };
}

/** Index of the mark nearest to sample position `s` (marks ascending). */
export function nearestMark(position: Int32Array, s: number): number {
  let lo = 0;
  let hi = position.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (position[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(position[lo - 1] - s) <= Math.abs(position[lo] - s)) return lo - 1;
  return lo;
}

/**
 * Resynthesises `x` following `plan`. Overlapping grains are normalised by the sum of their windows
 * where that sum exceeds one (raised pitch packs grains closer), so level does not grow with pitch.
 */
export function psola(x: Float32Array, sampleRate: number, marks: PitchMarks, plan: PsolaPlan): Float32Array {
  const len = Math.max(0, Math.floor(plan.outputLength));
  const out = new Float32Array(len);
  if (len === 0 || marks.position.length === 0) return out;
  const weight = new Float32Array(len);
  const count = marks.position.length;
  // The first output mark goes where the first input mark maps to, so that a plan asking for nothing
  // puts every grain back where it came from.
  let tOutSamples = Math.max(0, marks.position[0] - plan.sourceTime(0) * sampleRate);
  let noiseSeed = 0x9e3779b9;
  while (tOutSamples < len) {
    const tOut = tOutSamples / sampleRate;
    const source = plan.sourceTime(tOut) * sampleRate;
    const k = nearestMark(marks.position, source);
    const voiced = marks.voiced[k] === 1;
    const inPeriod = marks.period[k];
    // Unvoiced grains come from exactly where the plan points and at jittered spacing (±25 %): the same
    // noise grain repeated every 10 ms, as a stretch would do, is heard (and tracked) as a 100 Hz buzz.
    const centre = voiced ? marks.position[k] : Math.min(x.length - 1, Math.max(0, Math.round(source)));
    const target = voiced ? plan.targetF0(tOut) : 0;
    // Without a target a voiced grain keeps the input's own mark spacing (its real, not its tracked, period).
    const ownSpacing = k + 1 < count ? marks.position[k + 1] - marks.position[k] : inPeriod;
    let outPeriod = target > 0 && Number.isFinite(target) ? sampleRate / target : ownSpacing;
    if (!voiced) {
      noiseSeed = (Math.imul(noiseSeed, 1664525) + 1013904223) >>> 0;
      outPeriod = inPeriod * (0.75 + 0.5 * (noiseSeed / 4294967296));
    }
    const g = plan.gain(tOut);
    const half = Math.max(1, Math.round(inPeriod));
    const at = Math.round(tOutSamples);
    for (let j = -half; j <= half; j++) {
      const src = centre + j;
      const dst = at + j;
      if (src < 0 || src >= x.length || dst < 0 || dst >= len) continue;
      const w = 0.5 + 0.5 * Math.cos((Math.PI * j) / (half + 1));
      out[dst] += x[src] * w * g;
      weight[dst] += w;
    }
    tOutSamples += Math.max(1, outPeriod);
  }
  for (let i = 0; i < len; i++) if (weight[i] > 1) out[i] /= weight[i];
  return out;
}
