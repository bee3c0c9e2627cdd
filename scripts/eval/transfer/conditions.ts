/**
 * The transfer bench's conditions (what a held-out speaker's takes go through before analysis) and
 * the training augmentation (what the training speakers' takes may go through). The two are drawn
 * apart on purpose: augmentation uses random parameters and its own noise and room seeds, and never
 * the codec, so the codec condition measures a shift the model has not been trained on.
 */
import { seededRandom } from '../../lib/seeded';
import { addNoise, microphone, type NoiseColour, PHONE, reverberate } from './channel';
import { type FfmpegRunner, opusRoundTrip } from './codec';
import { warpFormants } from './formant-warp';
import { changeTempo, shiftPitch } from './time-pitch';

export interface ShiftContext {
  sampleRate: number;
  /** Seed for this take (noise and room realisations). */
  seed: number;
  /** Seed for the take's speaker (what stays the same across a learner's takes). */
  speakerSeed: number;
  ffmpeg: FfmpegRunner;
}

export interface Condition {
  id: string;
  /** What the condition stands for, printed in the table. */
  label: string;
  apply(x: Float32Array, c: ShiftContext): Float32Array;
}

/** Every shifted take is brought back to the same peak (the corpus is peak-normalised). */
export function toPeak(x: Float32Array, peak = 0.9): Float32Array {
  let m = 0;
  for (const v of x) m = Math.max(m, Math.abs(v));
  if (m === 0) return x;
  const g = peak / m;
  return x.map((v) => v * g);
}

export const CLEAN: Condition = { id: 'clean', label: 'clean', apply: (x) => x };

export const BENCH_CONDITIONS: Condition[] = [
  CLEAN,
  { id: 'pitch+4', label: 'pitch +4 st', apply: (x, c) => shiftPitch(x, c.sampleRate, 4) },
  { id: 'pitch-4', label: 'pitch −4 st', apply: (x, c) => shiftPitch(x, c.sampleRate, -4) },
  { id: 'vtl1.15', label: 'formants ×1.15', apply: (x, c) => warpFormants(x, c.sampleRate, 1.15) },
  { id: 'vtl0.87', label: 'formants ×0.87', apply: (x, c) => warpFormants(x, c.sampleRate, 0.87) },
  {
    id: 'voice-up',
    label: 'pitch +5 st, formants ×1.12',
    apply: (x, c) => warpFormants(shiftPitch(x, c.sampleRate, 5), c.sampleRate, 1.12),
  },
  { id: 'tempo1.15', label: 'tempo +15 %', apply: (x, c) => changeTempo(x, c.sampleRate, 1.15) },
  { id: 'tempo0.85', label: 'tempo −15 %', apply: (x, c) => changeTempo(x, c.sampleRate, 0.85) },
  {
    id: 'phone',
    label: 'phone mic 300–3400 Hz, +6 dB tilt',
    apply: (x, c) => microphone(x, c.sampleRate, PHONE),
  },
  { id: 'noise20', label: 'pink noise 20 dB SNR', apply: (x, c) => addNoise(x, 20, 'pink', c.seed) },
  { id: 'noise10', label: 'pink noise 10 dB SNR', apply: (x, c) => addNoise(x, 10, 'pink', c.seed) },
  {
    id: 'room',
    label: 'small room, RT60 0.4 s',
    apply: (x, c) => reverberate(x, c.sampleRate, 0.4, 3, c.seed),
  },
  { id: 'opus16', label: 'Opus 16 kbit/s', apply: (x, c) => opusRoundTrip(x, c.sampleRate, 16, c.ffmpeg) },
];

/**
 * Training variant k of a take. A learner keeps one voice and usually one microphone, so the voice
 * and microphone of a variant are drawn per speaker (`speakerSeed`): pitch (±1.5–6 st) with
 * probability 1/2, vocal tract (×0.84–1.2) 1/2, tempo (×0.8–1.25) 1/3, microphone (random band and
 * tilt) 1/2. Noise (5–30 dB SNR, white/pink/brown) 1/3 and a room (RT60 0.15–0.9 s) 1/3 are drawn
 * per take (`takeSeed`). Seeds are offset from the bench's so no noise or room is shared, and the
 * codec is never used.
 */
export function augment(
  x: Float32Array,
  sampleRate: number,
  speakerSeed: number,
  takeSeed: number,
): Float32Array {
  const voice = seededRandom(speakerSeed * 7919 + 104_729);
  const take = seededRandom(takeSeed * 6007 + 15_485_863);
  const u = (rand: () => number, lo: number, hi: number) => lo + (hi - lo) * rand();
  const logU = (rand: () => number, lo: number, hi: number) => Math.exp(u(rand, Math.log(lo), Math.log(hi)));
  const pitch = voice() < 0.5 ? (voice() < 0.5 ? -1 : 1) * u(voice, 1.5, 6) : 0;
  const tract = voice() < 0.5 ? logU(voice, 0.84, 1.2) : 1;
  const tempo = voice() < 1 / 3 ? logU(voice, 0.8, 1.25) : 1;
  const mic =
    voice() < 0.5
      ? {
          lowHz: u(voice, 60, 400),
          highHz: u(voice, 3000, 8000),
          tiltDb: u(voice, -8, 8),
          tiltHz: u(voice, 800, 3000),
        }
      : null;
  const colours: NoiseColour[] = ['white', 'pink', 'brown'];
  const snr = take() < 1 / 3 ? u(take, 5, 30) : null;
  const colour = colours[Math.floor(take() * 3)];
  const rt60 = take() < 1 / 3 ? u(take, 0.15, 0.9) : null;
  const drr = u(take, -3, 8);
  let y = x;
  if (pitch !== 0) y = shiftPitch(y, sampleRate, pitch);
  if (tract !== 1) y = warpFormants(y, sampleRate, tract);
  if (tempo !== 1) y = changeTempo(y, sampleRate, tempo);
  if (rt60 !== null) y = reverberate(y, sampleRate, rt60, drr, takeSeed + 2_000_003);
  if (mic) y = microphone(y, sampleRate, mic);
  if (snr !== null) y = addNoise(y, snr, colour, takeSeed + 1_000_003);
  return y;
}
