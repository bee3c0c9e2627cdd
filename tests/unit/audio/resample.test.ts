import { describe, expect, it } from 'vitest';
import { ResampleError, resample, StreamingResampler } from '../../../src/audio/dsp/resample';
import { db, noise, rms, sine, toneAmplitude } from './signals';

const OUT = 16000;
// Skip the filter's start-up and run-out (half the filter, < 10 ms) when measuring.
const EDGE = 400;

const KERNELS = [
  { name: 'WebAssembly SIMD', simd: true },
  { name: 'JS', simd: false },
];

describe.each([48000, 44100])('resampling %d Hz → 16 kHz', (rate) => {
  const length = Math.round(rate * 0.5);

  describe.each(KERNELS)('with the $name kernel', ({ simd }) => {
    it('keeps the passband flat within ±0.001 dB up to 7 kHz', () => {
      let worst = 0;
      let tones = 0;
      for (let f = 50; f <= 7000; f += 97) {
        const y = resample(sine(f, rate, length), rate, OUT, { simd });
        worst = Math.max(worst, Math.abs(db(toneAmplitude(y, f, OUT, EDGE, y.length - EDGE))));
        tones++;
      }
      expect(tones).toBe(72);
      expect(worst).toBeLessThan(0.001);
    });

    it('rejects everything above 8 kHz (would alias) by at least 80 dB', () => {
      let worst = -Infinity;
      for (let f = 8000; f < rate / 2; f += 131) {
        const y = resample(sine(f, rate, length), rate, OUT, { simd });
        // Whatever comes out is alias energy; compare its RMS to the input tone's (1/√2).
        worst = Math.max(worst, db(rms(y, EDGE, y.length - EDGE) / Math.SQRT1_2));
      }
      expect(worst).toBeLessThan(-80);
    });

    it('produces the same samples whatever the chunk sizes', () => {
      const x = noise(rate, 7);
      const whole = resample(x, rate, OUT, { simd });
      const r = new StreamingResampler(rate, OUT, { maxChunk: 4096, simd });
      expect(r.kernelKind).toBe(simd ? 'simd' : 'js');
      const out = new Float32Array(whole.length + 64);
      let written = 0;
      let seed = 3;
      for (let at = 0; at < x.length; ) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        // Up to 6000 samples: longer than maxChunk at times, so the history grows mid-stream.
        const n = Math.min(x.length - at, 1 + (seed % 6000));
        written += r.process(x.subarray(at, at + n), out.subarray(written));
        at += n;
      }
      written += r.flush(out.subarray(written));
      expect(written).toBe(whole.length);
      expect(written).toBe(Math.ceil((x.length * OUT) / rate));
      for (let i = 0; i < written; i++) if (out[i] !== whole[i]) throw new Error(`sample ${i} differs`);
    });
  });

  it('gives the same samples with either kernel, to float32 rounding', () => {
    const x = noise(rate, 5);
    const a = resample(x, rate, OUT, { simd: true });
    const b = resample(x, rate, OUT, { simd: false });
    expect(a.length).toBe(b.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-6);
  });

  it('is zero-phase: an impulse at input time t peaks at output index t · 16000 / rate', () => {
    const step = rate === 48000 ? 3 : 441; // input indices that land exactly on an output sample
    const at = step * 20;
    const x = new Float32Array(at * 2);
    x[at] = 1;
    const y = resample(x, rate, OUT);
    let peak = 0;
    for (let i = 1; i < y.length; i++) if (Math.abs(y[i]) > Math.abs(y[peak])) peak = i;
    expect(peak).toBe((at * OUT) / rate);
  });
});

describe('StreamingResampler', () => {
  it('upsamples 8 kHz → 16 kHz keeping a 3 kHz tone and its timing', () => {
    const y = resample(sine(3000, 8000, 4000), 8000, OUT);
    expect(y.length).toBe(8000);
    expect(Math.abs(db(toneAmplitude(y, 3000, OUT, EDGE, y.length - EDGE)))).toBeLessThan(0.1);
  });

  it('holds no more than half a filter of look-ahead before flush', () => {
    const r = new StreamingResampler(48000, OUT);
    const out = new Float32Array(r.maxOutput(4800));
    const n = r.process(new Float32Array(4800), out);
    expect(n).toBeGreaterThanOrEqual(1600 - Math.ceil(r.taps / 6) - 1);
    expect(n).toBeLessThanOrEqual(1600);
  });

  it('refuses ratios that would need an enormous filter bank, with a hint', () => {
    expect(() => new StreamingResampler(44101, OUT)).toThrow(ResampleError);
    expect(() => new StreamingResampler(44101, OUT)).toThrow(/standard capture rate/);
    expect(() => new StreamingResampler(0, OUT)).toThrow(/positive integers/);
  });

  it('copies when the rates are equal', () => {
    const x = noise(100);
    const y = resample(x, OUT, OUT);
    expect(y).not.toBe(x);
    expect(Array.from(y)).toEqual(Array.from(x));
  });
});
