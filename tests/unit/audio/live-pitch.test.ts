import { describe, expect, it } from 'vitest';
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../../../src/audio/constants';
import { LivePitch } from '../../../src/audio/dsp/live-pitch';
import { noise, sine } from './signals';

/**
 * The estimate written the direct way (three sums per lag, float64, over the last `n` samples of
 * the stream): what LivePitch's prefix sums and dot products must reproduce.
 */
function directEstimate(stream: Float32Array, rate: number, n: number): number | null {
  const x = stream.subarray(stream.length - n);
  let energy = 0;
  for (let i = 0; i < n; i++) energy += x[i] * x[i];
  if (Math.sqrt(energy / n) < 0.01) return null;
  const minLag = Math.floor(rate / PITCH_MAX_HZ);
  const maxLag = Math.ceil(rate / PITCH_MIN_HZ);
  const r = new Float64Array(maxLag + 3);
  let best = 0;
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
    let acc = 0;
    let e1 = 0;
    let e2 = 0;
    for (let i = 0; i + lag < n; i++) {
      acc += x[i] * x[i + lag];
      e1 += x[i] * x[i];
      e2 += x[i + lag] * x[i + lag];
    }
    r[lag] = acc / Math.sqrt(e1 * e2 || 1);
    if (lag >= minLag && lag <= maxLag) best = Math.max(best, r[lag]);
  }
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (r[lag] > r[lag - 1] && r[lag] >= r[lag + 1] && r[lag] >= 0.9 * best) {
      if (r[lag] < 0.6) return null;
      const denom = r[lag - 1] - 2 * r[lag] + r[lag + 1];
      return rate / (lag + (denom === 0 ? 0 : (0.5 * (r[lag - 1] - r[lag + 1])) / denom));
    }
  }
  return null;
}

describe('LivePitch', () => {
  it.each([110, 220, 330])('finds a %d Hz harmonic tone within 1 %%', (f0) => {
    const p = new LivePitch(16000);
    const x = sine(f0, 16000, 1600, 0.5);
    const h2 = sine(2 * f0, 16000, 1600, 0.2);
    for (let i = 0; i < x.length; i++) x[i] += h2[i];
    p.push(x);
    expect(Math.abs((p.estimate() as number) / f0 - 1)).toBeLessThan(0.01);
  });

  it('says null for silence, noise and a frame not yet full', () => {
    const p = new LivePitch(16000);
    p.push(new Float32Array(100));
    expect(p.estimate()).toBeNull();
    p.push(new Float32Array(1600));
    expect(p.estimate()).toBeNull();
    p.push(noise(1600, 5));
    expect(p.estimate()).toBeNull();
  });

  it.each([true, false])(
    'matches the direct autocorrelation over the last frame, whatever the chunking (simd: %s)',
    (simd) => {
      const rate = 16000;
      const p = new LivePitch(rate, 0.04, { simd });
      // A gliding voiced tone with a little noise, fed in chunks of 1 to 1500 samples (some longer
      // than the frame, so the ring wraps and the oldest samples are dropped in one push).
      const total = rate * 2;
      const x = new Float32Array(total);
      let phase = 0;
      const hiss = noise(total, 4);
      for (let i = 0; i < total; i++) {
        phase += (2 * Math.PI * (140 + 80 * Math.sin(i / 4000))) / rate;
        x[i] = 0.4 * Math.sin(phase) + 0.15 * Math.sin(2 * phase) + 0.02 * hiss[i];
      }
      let seed = 7;
      let compared = 0;
      for (let at = 0; at < total; ) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = Math.min(total - at, 1 + (seed % 1500));
        p.push(x.subarray(at, at + n));
        at += n;
        if (at < 640) continue;
        const want = directEstimate(x.subarray(0, at), rate, 640);
        const got = p.estimate();
        if (want === null) expect(got).toBeNull();
        else {
          expect(Math.abs((got as number) - want)).toBeLessThan(1e-3);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(30);
    },
  );
});
