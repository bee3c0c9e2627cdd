import { describe, expect, it } from 'vitest';
import { analyzeVoice, FEATURE_NAMES } from '../../../src/audio/analysis';
import { add, concat, FS, harmonicTone, voicedFraction, whiteNoise } from './synth';

describe('levels, quality and segmentation', () => {
  it('measures the intensity of a sine of known RMS (dB re full scale)', () => {
    for (const amp of [0.5, 0.05]) {
      const x = harmonicTone(1, () => 220, [1], amp);
      const a = analyzeVoice(x, FS);
      const expected = 20 * Math.log10(amp / Math.SQRT2);
      for (let i = 10; i < 90; i++) expect(a.frames.intensityDb[i]).toBeCloseTo(expected, 0);
    }
  });

  it('measures the intensity of white noise of known RMS', () => {
    const a = analyzeVoice(whiteNoise(1, 0.1, 3), FS);
    const mid = Array.from(a.frames.intensityDb.subarray(10, 90));
    const mean = mid.reduce((s, v) => s + v, 0) / mid.length;
    expect(Math.abs(mean - -20)).toBeLessThan(0.5);
  });

  it('finds no speech in noise alone', () => {
    const a = analyzeVoice(whiteNoise(2, 0.05, 9), FS);
    expect(voicedFraction(a.frames.f0Hz)).toBeLessThan(0.05);
    expect(a.quality.speechDetected).toBe(false);
    expect(a.segments.onsetSeconds).toBeNull();
  });

  it('handles digital silence without NaN', () => {
    const a = analyzeVoice(new Float32Array(FS), FS);
    expect(a.quality.speechDetected).toBe(false);
    expect(a.quality.peakDbfs).toBe(-120);
    expect(a.quality.snrDb).toBeNull();
    expect(Array.from(a.frames.f0Hz).every((v) => v === 0)).toBe(true);
    expect(a.features.length).toBe(FEATURE_NAMES.length);
    expect(Array.from(a.features).every(Number.isFinite)).toBe(true);
    expect(a.figures.pitchMedianHz).toBeNull();
  });

  it('handles an empty take', () => {
    const a = analyzeVoice(new Float32Array(0), FS);
    expect(a.durationSeconds).toBe(0);
    expect(a.quality.speechDetected).toBe(false);
  });

  it('reports clipping', () => {
    const loud = harmonicTone(1, () => 180, undefined, 4).map((v) => Math.max(-1, Math.min(1, v)));
    const a = analyzeVoice(loud, FS);
    expect(a.quality.clippedFraction).toBeGreaterThan(0.05);
    expect(a.quality.peakDbfs).toBeCloseTo(0, 1);
    const clean = analyzeVoice(
      harmonicTone(1, () => 180, undefined, 0.5),
      FS,
    );
    expect(clean.quality.clippedFraction).toBe(0);
  });

  it('segments tone bursts separated by gaps into speech and pauses', () => {
    const tone = () => harmonicTone(0.3, () => 160);
    const gap = () => new Float32Array(Math.round(0.4 * FS));
    const clean = concat(gap(), tone(), gap(), tone(), gap(), tone(), gap());
    const x = add(clean, whiteNoise(clean.length / FS, 0.0005, 4));
    const a = analyzeVoice(x, FS);
    expect(a.quality.speechDetected).toBe(true);
    expect(a.segments.onsetSeconds).toBeCloseTo(0.4, 1);
    expect(a.segments.offsetSeconds).toBeCloseTo(2.1, 1);
    expect(a.segments.pauses).toHaveLength(2);
    for (const p of a.segments.pauses) expect(Math.abs(p.end - p.start - 0.4)).toBeLessThan(0.06);
    expect(a.segments.voicedSegments).toBe(3);
    expect(Math.abs(a.segments.speechSeconds - 0.9)).toBeLessThan(0.15);
    expect(a.figures.pauseCount).toBe(2);
    expect(a.quality.snrDb).toBeGreaterThan(40);
  });
});
