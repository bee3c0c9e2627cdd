import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { describe, expect, it } from 'vitest';
import { analyzeVoice, FEATURE_NAMES } from '../../../src/audio/analysis';
import { addNoise, meanPower, microphone, PHONE, reverberate } from '../../../scripts/eval/transfer/channel';
import { type FfmpegRunner, opusRoundTrip } from '../../../scripts/eval/transfer/codec';
import { warpFormants } from '../../../scripts/eval/transfer/formant-warp';
import { changeTempo, shiftPitch } from '../../../scripts/eval/transfer/time-pitch';
import { FS, harmonicTone, rng } from './synth';

// The unit project has no Node typings: reach child_process through the runtime (as the fixture
// tests reach node:fs) to run the project's ffmpeg.
const nodeProcess = globalThis as unknown as { process: { getBuiltinModule(id: string): unknown } };
const childProcess = nodeProcess.process.getBuiltinModule('node:child_process') as {
  spawnSync(
    cmd: string,
    args: string[],
    o: { input: Uint8Array; maxBuffer: number },
  ): { status: number | null; stdout: Uint8Array; stderr: Uint8Array };
};
const runFfmpeg: FfmpegRunner = (args, input) => {
  const r = childProcess.spawnSync(ffmpegInstaller.path, args, { input, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${new TextDecoder().decode(r.stderr)}`);
  return r.stdout;
};

const medianPitch = (x: Float32Array) => analyzeVoice(x, FS).figures.pitchMedianHz ?? Number.NaN;

/** Level (dB) of a steady sine after a filter, re its level before. */
function gainDb(filter: (x: Float32Array) => Float32Array, hz: number): number {
  const x = new Float32Array(FS);
  for (let i = 0; i < x.length; i++) x[i] = 0.5 * Math.sin((2 * Math.PI * hz * i) / FS);
  const y = filter(x).subarray(FS / 4); // past the filters' settling
  return 10 * Math.log10(meanPower(y) / meanPower(x.subarray(FS / 4)));
}

/** A 120 Hz glottal-like pulse train through two resonances (Hz), as a vowel of a vocal tract. */
function vowel(seconds: number, formants: number[]): Float32Array {
  const n = Math.round(seconds * FS);
  let x = new Float32Array(n);
  const period = FS / 120;
  for (let i = 0; i < n; i += period) x[Math.round(i)] = 1;
  for (const f of formants) {
    const r = Math.exp((-Math.PI * 100) / FS); // 100 Hz bandwidth
    const a1 = -2 * r * Math.cos((2 * Math.PI * f) / FS);
    const a2 = r * r;
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) y[i] = x[i] - a1 * (y[i - 1] ?? 0) - a2 * (y[i - 2] ?? 0);
    x = y;
  }
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  return x.map((v) => (0.5 * v) / peak);
}

/** An utterance feature of the product's analysis (LPC formants for the warp test). */
function feature(x: Float32Array, name: string): number {
  const i = FEATURE_NAMES.indexOf(name);
  expect(i).toBeGreaterThanOrEqual(0);
  return analyzeVoice(x, FS).features[i];
}

describe('transfer bench shifts', () => {
  const tone = harmonicTone(1.5, () => 200);

  it('pitch shift moves a voice by the requested semitones and keeps its length', () => {
    for (const st of [4, -4, 3, -5]) {
      const y = shiftPitch(tone, FS, st);
      expect(y.length).toBe(tone.length);
      const ratio = medianPitch(y) / medianPitch(tone);
      expect(12 * Math.log2(ratio)).toBeCloseTo(st, 0);
      expect(Math.abs(12 * Math.log2(ratio) - st)).toBeLessThan(0.2);
    }
  });

  it('tempo changes the length by the factor and keeps the pitch', () => {
    for (const tempo of [1.15, 0.85]) {
      const y = changeTempo(tone, FS, tempo);
      expect(y.length).toBe(Math.round(tone.length / tempo));
      expect(Math.abs(12 * Math.log2(medianPitch(y) / medianPitch(tone)))).toBeLessThan(0.2);
    }
  });

  it('formant warp moves the resonances by the factor and leaves the pitch', () => {
    const x = vowel(1.2, [700, 1800]);
    const y = warpFormants(x, FS, 1.15);
    expect(feature(y, 'f1_v_mean') / feature(x, 'f1_v_mean')).toBeGreaterThan(1.1);
    expect(feature(y, 'f1_v_mean') / feature(x, 'f1_v_mean')).toBeLessThan(1.2);
    expect(feature(y, 'f2_v_mean') / feature(x, 'f2_v_mean')).toBeGreaterThan(1.1);
    expect(feature(y, 'f2_v_mean') / feature(x, 'f2_v_mean')).toBeLessThan(1.2);
    expect(Math.abs(12 * Math.log2(medianPitch(y) / medianPitch(x)))).toBeLessThan(0.2);
    const down = warpFormants(x, FS, 0.88);
    expect(feature(down, 'f2_v_mean') / feature(x, 'f2_v_mean')).toBeGreaterThan(0.84);
    expect(feature(down, 'f2_v_mean') / feature(x, 'f2_v_mean')).toBeLessThan(0.92);
  });

  it('the phone microphone passes 300–3400 Hz and attenuates outside the band', () => {
    const phone = (x: Float32Array) => microphone(x, FS, PHONE);
    expect(Math.abs(gainDb(phone, 1000))).toBeLessThan(3);
    expect(gainDb(phone, 2500)).toBeGreaterThan(0); // the bright tilt
    expect(gainDb(phone, 100)).toBeLessThan(-30);
    expect(gainDb(phone, 6000)).toBeLessThan(-20);
  });

  it('noise is added at the requested SNR', () => {
    for (const snr of [20, 10]) {
      const y = addNoise(tone, snr, 'pink', 3);
      const n = y.map((v, i) => v - tone[i]);
      expect(10 * Math.log10(meanPower(tone) / meanPower(n))).toBeCloseTo(snr, 1);
    }
  });

  it('reverberation decays 60 dB in the requested time (Schroeder integration of an impulse)', () => {
    for (const rt60 of [0.3, 0.6]) {
      const impulse = new Float32Array(FS);
      impulse[100] = 1;
      const h = reverberate(impulse, FS, rt60).subarray(100);
      const energy = new Float64Array(h.length);
      let acc = 0;
      for (let i = h.length - 1; i >= 0; i--) energy[i] = acc += h[i] * h[i];
      const db = (i: number) => 10 * Math.log10(energy[i] / energy[0]);
      const at = (level: number) => energy.findIndex((_, i) => db(i) <= level);
      const t5 = at(-5);
      const t25 = at(-25);
      expect(t5).toBeGreaterThan(0);
      const measured = ((t25 - t5) / FS) * 3; // T20 extrapolated to 60 dB
      expect(measured / rt60).toBeGreaterThan(0.9);
      expect(measured / rt60).toBeLessThan(1.1);
    }
  });

  it('the Opus round trip keeps the length and, roughly, the signal', () => {
    const r = rng(5);
    const x = harmonicTone(1, (t) => 150 + 30 * Math.sin(2 * Math.PI * 2 * t)).map((v) => v + 0.002 * r());
    const y = opusRoundTrip(x, FS, 16, runFfmpeg);
    expect(y.length).toBe(x.length);
    let xy = 0;
    for (let i = 0; i < x.length; i++) xy += x[i] * y[i];
    const corr = xy / Math.sqrt(meanPower(x) * meanPower(y)) / x.length;
    expect(corr).toBeGreaterThan(0.8);
    expect(Math.abs(10 * Math.log10(meanPower(y) / meanPower(x)))).toBeLessThan(3);
  });
});
