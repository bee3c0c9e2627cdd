import { describe, expect, it } from 'vitest';
import { analyzeVoice } from '../../../src/audio/analysis';
import { FS, harmonicTone, voicedFraction, voicedMedian } from './synth';

describe('pitch tracker on synthesised voices', () => {
  it.each([80, 120, 200, 300, 450])('finds the fundamental of a %i Hz harmonic tone', (f0) => {
    const a = analyzeVoice(
      harmonicTone(1, () => f0),
      FS,
    );
    const mid = [10, a.frames.f0Hz.length - 10] as const;
    expect(voicedFraction(a.frames.f0Hz, ...mid)).toBeGreaterThan(0.95);
    expect(Math.abs(voicedMedian(a.frames.f0Hz, ...mid) / f0 - 1)).toBeLessThan(0.01);
  });

  it('follows an exponential glide from 100 to 300 Hz within 3 % per frame', () => {
    const truth = (t: number) => 100 * 3 ** t;
    const a = analyzeVoice(harmonicTone(1, truth), FS);
    const hop = a.frames.hopSeconds;
    let checked = 0;
    for (let i = 8; i < a.frames.f0Hz.length - 8; i++) {
      const f = a.frames.f0Hz[i];
      expect(f).toBeGreaterThan(0);
      expect(Math.abs(f / truth((i + 0.5) * hop) - 1)).toBeLessThan(0.03);
      checked++;
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('is not fooled into the octave above by a dominant second harmonic', () => {
    const a = analyzeVoice(
      harmonicTone(1, () => 150, [0.3, 1, 0.3, 0.2]),
      FS,
    );
    expect(Math.abs(voicedMedian(a.frames.f0Hz, 10, 90) / 150 - 1)).toBeLessThan(0.02);
  });

  it('reports the missing fundamental of harmonics 2-6 of 120 Hz', () => {
    const a = analyzeVoice(
      harmonicTone(1, () => 120, [0, 1, 0.8, 0.6, 0.5, 0.4]),
      FS,
    );
    expect(Math.abs(voicedMedian(a.frames.f0Hz, 10, 90) / 120 - 1)).toBeLessThan(0.02);
  });

  it('gives the same pitch at 8, 22.05, 44.1 and 48 kHz input rates', () => {
    for (const rate of [8_000, 22_050, 44_100, 48_000]) {
      const a = analyzeVoice(
        harmonicTone(0.8, () => 210, undefined, 0.5, rate),
        rate,
      );
      expect(a.sampleRate).toBe(rate);
      expect(Math.abs(voicedMedian(a.frames.f0Hz, 10, 70) / 210 - 1)).toBeLessThan(0.01);
    }
  });

  it('rejects sample rates outside 8-48 kHz', () => {
    expect(() => analyzeVoice(new Float32Array(1000), 4_000)).toThrow(/outside/);
    expect(() => analyzeVoice(new Float32Array(1000), 96_000)).toThrow(/outside/);
  });
});
