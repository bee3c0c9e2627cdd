/**
 * Rational polyphase windowed-sinc resampler (Kaiser window), used until the recording pipeline's
 * src/audio/dsp/resample.ts exists. Anti-aliased: the cut-off sits at 0.95 of the lower Nyquist
 * frequency. Filter tables are cached per (input rate, output rate).
 */

const DEFAULT_ZERO_CROSSINGS = 16;
const KAISER_BETA = 8.6;

interface Table {
  up: number;
  down: number;
  /** Taps per phase. */
  taps: number;
  /** Offset of the first tap relative to floor(input position). */
  first: number;
  /** coefficients[phase * taps + k] */
  coefficients: Float64Array;
}

const tables = new Map<string, Table>();

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 40; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

function buildTable(fsIn: number, fsOut: number, zeroCrossings: number): Table {
  const g = gcd(fsIn, fsOut);
  const up = fsOut / g;
  const down = fsIn / g;
  // Cut-off relative to the input Nyquist frequency.
  const rel = Math.min(1, fsOut / fsIn) * 0.95;
  const half = Math.ceil(zeroCrossings / rel);
  const taps = 2 * half;
  const first = -half + 1;
  const coefficients = new Float64Array(up * taps);
  const i0b = besselI0(KAISER_BETA);
  for (let p = 0; p < up; p++) {
    const frac = p / up; // output position minus floor, in input samples
    for (let k = 0; k < taps; k++) {
      const d = first + k - frac; // input sample offset from the output position
      const x = d * rel;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const u = d / half;
      const w = Math.abs(u) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - u * u)) / i0b;
      coefficients[p * taps + k] = rel * sinc * w;
    }
  }
  return { up, down, taps, first, coefficients };
}

/**
 * Resample mono PCM from fsIn to fsOut (both integer Hz). Returns the input when the rates match.
 * zeroCrossings sets the filter length (16: about 80 dB stop-band; 8 is enough for the internal
 * 16 -> 8 kHz decimation that only feeds the pitch and formant trackers).
 */
export function resampleSinc(
  input: Float32Array,
  fsIn: number,
  fsOut: number,
  zeroCrossings = DEFAULT_ZERO_CROSSINGS,
): Float32Array {
  if (fsIn === fsOut) return input;
  const key = `${fsIn}>${fsOut}/${zeroCrossings}`;
  let t = tables.get(key);
  if (!t) {
    t = buildTable(fsIn, fsOut, zeroCrossings);
    tables.set(key, t);
  }
  const { up, down, taps, first, coefficients } = t;
  const outLen = Math.floor((input.length * up) / down);
  const out = new Float32Array(outLen);
  const n = input.length;
  for (let m = 0; m < outLen; m++) {
    const pos = m * down;
    const base = Math.floor(pos / up);
    const phase = pos - base * up;
    const c0 = phase * taps;
    let acc = 0;
    const start = base + first;
    if (start >= 0 && start + taps <= n) {
      for (let k = 0; k < taps; k++) acc += coefficients[c0 + k] * input[start + k];
    } else {
      for (let k = 0; k < taps; k++) {
        const idx = start + k;
        if (idx >= 0 && idx < n) acc += coefficients[c0 + k] * input[idx];
      }
    }
    out[m] = acc;
  }
  return out;
}
