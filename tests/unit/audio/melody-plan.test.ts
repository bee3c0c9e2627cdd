import { describe, expect, it } from 'vitest';
import { analyzeVoice } from '../../../src/audio/analysis';
import { compareVoices } from '../../../src/audio/scoring/compare';
import { MAX_TARGET_SEMITONES, melodyPlan } from '../../../src/audio/scoring/melody';

const RATE = 16_000;

/** A voiced-like tone with harmonics gliding from `f0` to `f1` Hz over `seconds`, between two silences. */
function glide(f0: number, f1: number, seconds: number): Float32Array {
  const pad = Math.round(0.2 * RATE);
  const n = Math.round(seconds * RATE);
  const out = new Float32Array(n + 2 * pad);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const f = f0 + ((f1 - f0) * i) / n;
    phase += (2 * Math.PI * f) / RATE;
    out[pad + i] = 0.3 * Math.sin(phase) + 0.15 * Math.sin(2 * phase) + 0.08 * Math.sin(3 * phase);
  }
  return out;
}

describe('melody plan', () => {
  const take = glide(120, 130, 1.2);
  const learner = analyzeVoice(take, RATE);
  const actor = analyzeVoice(glide(200, 240, 1.2), RATE);

  it('aims at the actor contour moved onto the learner median, and bridges a target an octave or more off', () => {
    const comparison = compareVoices(learner, actor);
    const points = comparison.actor.pitchSt;
    const finite = Array.from(points).filter(Number.isFinite);
    expect(finite.length).toBeGreaterThan(10);
    const spike = Math.floor(points.length / 2);
    const step = comparison.actor.stepSeconds;
    const actorStart = comparison.actor.fromFrame * actor.frames.hopSeconds;
    const tSpike = actorStart + (spike + 0.5) * step;
    const input = { take, sampleRate: RATE, learner, actor, comparison };
    const before = melodyPlan(input, 125).targetF0(tSpike);
    // Within a few semitones of the learner's median: the glide, not the spike.
    expect(before).toBeGreaterThan(125 * 2 ** (-3 / 12));
    expect(before).toBeLessThan(125 * 2 ** (3 / 12));
    // The tracker reads a fricative at +28 semitones there.
    const spiked = { ...comparison, actor: { ...comparison.actor, pitchSt: points.slice() } };
    spiked.actor.pitchSt[spike] = 28;
    const after = melodyPlan({ ...input, comparison: spiked }, 125).targetF0(tSpike);
    expect(after).toBeCloseTo(before, 0);
    expect(after).toBeLessThan(125 * 2 ** (MAX_TARGET_SEMITONES / 12));
  });
});
