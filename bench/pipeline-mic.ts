/**
 * A learner who speaks in time with the clip, for the Chromium part of bench:pipeline.
 *
 * Chromium's fake microphone plays its file from the moment the page opens the microphone, and the
 * clip starts a count-in and a set-up later: with the film's take looped as it is, where each line's
 * end fell in the learner's speech depended on that delay, so how many windows could close at the
 * learner's silence (src/audio/dsp/windows.ts, `endsEarly`), and with it line end → score, changed
 * from machine to machine. The bench measures the delay in a first take (`micDelay`), then gives each
 * measured take a file that starts with that much silence and then holds the film's take once per copy
 * of the demo film, not looped (`%noloop`), and prints how far each take's lines landed from their
 * speech (`micAlignment`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TARGET_SAMPLE_RATE } from '../src/audio/constants';
import { decodeWav, encodeWav16, toMono } from '../src/audio/dsp/wav';
import { locate } from '../tests/e2e/recording-helpers';

/** An upload of a take: its samples and where its window began on the clip (s). */
export interface PlacedUpload {
  wav: Float32Array;
  windowStart: number;
}

/** Uploads found in the microphone's file with a weaker correlation are not used (a quiet window). */
const MIN_NCC = 0.5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : Number.NaN;
};

/** A wav's samples at TARGET_SAMPLE_RATE, mono. */
export function readMono(file: string): Float32Array {
  const wav = decodeWav(fs.readFileSync(file));
  if (wav.sampleRate !== TARGET_SAMPLE_RATE) throw new Error(`${file}: ${wav.sampleRate} Hz`);
  return toMono(wav);
}

/**
 * The microphone's delay (s): how far into its looping `fixture` Chromium's fake device was when the
 * clip stood at 0, from a take's uploads (each found in the file by correlation). Null when too few
 * uploads were found.
 */
export function micDelay(uploads: readonly PlacedUpload[], fixture: Float32Array): number | null {
  const period = fixture.length / TARGET_SAMPLE_RATE;
  const delays: number[] = [];
  for (const u of uploads) {
    const m = locate(u.wav, fixture, TARGET_SAMPLE_RATE, true);
    if (m.ncc < MIN_NCC) continue;
    const d = m.offset / TARGET_SAMPLE_RATE - u.windowStart;
    delays.push(((d % period) + period) % period);
  }
  if (delays.length < 3) return null;
  // Around the first, so that values on either side of the period's wrap agree.
  const ref = delays[0];
  const unwrapped = delays.map(
    (d) => ref + ((((d - ref + period / 2) % period) + period) % period) - period / 2,
  );
  return median(unwrapped);
}

/**
 * The measured takes' microphone: `delaySeconds` of silence, then `fixture` once per copy of the film
 * (each at its copy's start, `stepSeconds` apart), then silence. Returns the file's samples and the
 * path for Chromium, `%noloop` so it is played once.
 */
export function alignedMic(
  fixture: Float32Array,
  delaySeconds: number,
  copies: number,
  stepSeconds: number,
): { samples: Float32Array; chromiumPath: string } {
  const rate = TARGET_SAMPLE_RATE;
  const lead = Math.round(delaySeconds * rate);
  const samples = new Float32Array(
    lead + Math.round(copies * stepSeconds * rate) + fixture.length + 2 * rate,
  );
  for (let c = 0; c < copies; c++) samples.set(fixture, lead + Math.round(c * stepSeconds * rate));
  const file = path.join(os.tmpdir(), 'bench-pipeline-mic.wav');
  fs.writeFileSync(file, Buffer.from(encodeWav16(samples, rate)));
  return { samples, chromiumPath: `${file}%noloop` };
}

/**
 * How far from its line each upload was cut (s, + = from later sound), found in the measured take's
 * microphone file (alignedMic): the median and range over the uploads found, and how many were. Every
 * copy of the film holds the same lines, so an upload matches each copy of its speech equally: the
 * distance is taken to the nearest copy (modulo `stepSeconds`).
 */
export function micAlignment(
  uploads: readonly PlacedUpload[],
  mic: Float32Array,
  delaySeconds: number,
  stepSeconds: number,
): { median: number; min: number; max: number; found: number; of: number } {
  const errors: number[] = [];
  for (const u of uploads) {
    const m = locate(u.wav, mic, TARGET_SAMPLE_RATE, false);
    if (m.ncc < MIN_NCC) continue;
    const e = m.offset / TARGET_SAMPLE_RATE - delaySeconds - u.windowStart;
    errors.push(e - Math.round(e / stepSeconds) * stepSeconds);
  }
  return {
    median: median(errors),
    min: Math.min(...errors),
    max: Math.max(...errors),
    found: errors.length,
    of: uploads.length,
  };
}
