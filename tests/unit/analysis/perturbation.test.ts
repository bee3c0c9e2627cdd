import { describe, expect, it } from 'vitest';
import { analyzeVoice } from '../../../src/audio/analysis';
import { FS, perturbedPulses } from './synth';

describe('jitter, shimmer and HNR on pulse trains', () => {
  it('measures near-zero jitter and shimmer on a regular pulse train', () => {
    const a = analyzeVoice(perturbedPulses(1, 125, 0, 0).x, FS);
    expect(a.figures.jitterPct).not.toBeNull();
    expect(a.figures.jitterPct!).toBeLessThan(0.3);
    expect(a.figures.shimmerDb!).toBeLessThan(0.2);
    expect(a.figures.hnrDb!).toBeGreaterThan(15);
  });

  it('measures the local jitter and shimmer built into a perturbed pulse train', () => {
    const p = perturbedPulses(1.5, 125, 0.03, 1.5);
    expect(p.jitter).toBeGreaterThan(0.015); // the truth is about 2 % and 1 dB
    const a = analyzeVoice(p.x, FS);
    expect(Math.abs(a.figures.jitterPct! / 100 - p.jitter) / p.jitter).toBeLessThan(0.2);
    expect(Math.abs(a.figures.shimmerDb! - p.shimmerDb) / p.shimmerDb).toBeLessThan(0.2);
    expect(Math.abs(a.figures.pitchMedianHz! / 125 - 1)).toBeLessThan(0.03);
  });
});
