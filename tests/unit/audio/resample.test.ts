import { describe, expect, it } from 'vitest';
import { ResampleError, resample, StreamingResampler } from '../../../src/audio/dsp/resample';
import { db, noise, rms, sine, toneAmplitude } from './signals';

const OUT = 16000;
// Skip the filter's start-up and run-out (half the filter, < 10 ms) when measuring.
const EDGE = 400;

describe.each([48000, 44100])('resampling %d Hz → 16 kHz', (rate) => {
  const length = Math.round(rate * 0.5);

  it('keeps the passband flat within ±0.1 dB up to 7 kHz', () => {
    let worst = 0;
    for (let f = 50; f <= 7000; f += f < 1000 ? 190 : 500) {
      const y = resample(sine(f, rate, length), rate, OUT);
      const gain = db(toneAmplitude(y, f, OUT, EDGE, y.length - EDGE));
      worst = Math.max(worst, Math.abs(gain));
    }
    // Designed for ±0.001 dB; 0.1 dB is the requirement.
    expect(worst).toBeLessThan(0.1);
  });

  it('rejects everything above 8 kHz (would alias) by at least 60 dB', () => {
    let worst = -Infinity;
    for (let f = 8000; f < rate / 2; f += 731) {
      const y = resample(sine(f, rate, length), rate, OUT);
      // Whatever comes out is alias energy; compare its RMS to the input tone's (1/√2).
      worst = Math.max(worst, db(rms(y, EDGE, y.length - EDGE) / Math.SQRT1_2));
    }
    expect(worst).toBeLessThan(-60);
  });

  it('produces the same samples whatever the chunk sizes', () => {
    const x = noise(rate, 7);
    const whole = resample(x, rate, OUT);
    const r = new StreamingResampler(rate, OUT, { maxChunk: 4096 });
    const out = new Float32Array(whole.length + 64);
    let written = 0;
    let seed = 3;
    for (let at = 0; at < x.length; ) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = Math.min(x.length - at, 1 + (seed % 3000));
      written += r.process(x.subarray(at, at + n), out.subarray(written));
      at += n;
    }
    written += r.flush(out.subarray(written));
    expect(written).toBe(whole.length);
    expect(written).toBe(Math.ceil((x.length * OUT) / rate));
    for (let i = 0; i < written; i++) if (out[i] !== whole[i]) throw new Error(`sample ${i} differs`);
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
