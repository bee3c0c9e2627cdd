import { describe, expect, it } from 'vitest';
import { LivePitch } from '../../../src/audio/dsp/live-pitch';
import { noise, sine } from './signals';

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
});
