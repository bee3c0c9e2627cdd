/**
 * Finds where the speech is inside one EmoDB take and cuts a tidy clip around it.
 *
 * Why: this copy of EmoDB pads short utterances with digital zeros up to 2 s (see the dataset's
 * SOURCE.md), and the recordings keep a little room noise before and after the voice. The demo
 * films need the speech itself, ~100 ms of faded margin on each side, and an exact onset and
 * offset so the subtitle cue can sit exactly on the speech.
 */
import type { MonoPcm } from './wav-io';

export interface SpeechClip {
  /** The clip: margin + speech + margin, margins faded. */
  samples: Float32Array;
  sampleRate: number;
  /** Speech onset and offset inside `samples`, in samples. */
  speechStart: number;
  speechEnd: number;
}

const FRAME_SECONDS = 0.01;
/** Speech frames are this many dB above the take's noise floor... */
const ABOVE_FLOOR_DB = 12;
/** ...and no more than this many dB below its loudest frame. */
const BELOW_PEAK_DB = 40;
/** Margin kept (and faded) before and after the speech. */
export const MARGIN_SECONDS = 0.1;
/** Shortest fade, so a take that starts right on the voice does not click. */
const MIN_FADE_SECONDS = 0.005;

/** Index one past the last non-zero sample: the zero padding this copy added ends there. */
export function trimTrailingZeros(samples: Float32Array): number {
  let end = samples.length;
  while (end > 0 && samples[end - 1] === 0) end--;
  return end;
}

export function frameLevelsDb(samples: Float32Array, end: number, hop: number): number[] {
  const levels: number[] = [];
  for (let i = 0; i + hop <= end; i += hop) {
    let sum = 0;
    for (let j = i; j < i + hop; j++) sum += samples[j] * samples[j];
    levels.push(10 * Math.log10(sum / hop + 1e-12));
  }
  return levels;
}

/** Onset and offset of the voice, in samples, from 10 ms frame levels. */
export function findSpeech(pcm: MonoPcm): { start: number; end: number; usableEnd: number } {
  const usableEnd = trimTrailingZeros(pcm.samples);
  const hop = Math.round(pcm.sampleRate * FRAME_SECONDS);
  const levels = frameLevelsDb(pcm.samples, usableEnd, hop);
  if (levels.length === 0) throw new Error('take is empty after trimming its zero padding');
  const sorted = [...levels].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.1)];
  const peak = sorted[sorted.length - 1];
  const threshold = Math.max(floor + ABOVE_FLOOR_DB, peak - BELOW_PEAK_DB);
  const first = levels.findIndex((db) => db >= threshold);
  let last = levels.length - 1;
  while (last > first && levels[last] < threshold) last--;
  if (first < 0) throw new Error('no speech found in take');
  return { start: first * hop, end: Math.min(usableEnd, (last + 1) * hop), usableEnd };
}

/** Cuts the speech with up to MARGIN_SECONDS either side and fades the margins to zero. */
export function cutSpeechClip(pcm: MonoPcm): SpeechClip {
  const { start, end, usableEnd } = findSpeech(pcm);
  const margin = Math.round(pcm.sampleRate * MARGIN_SECONDS);
  const minFade = Math.round(pcm.sampleRate * MIN_FADE_SECONDS);
  const from = Math.max(0, start - margin);
  const to = Math.min(usableEnd, end + margin);
  const samples = pcm.samples.slice(from, to);
  const fadeIn = Math.max(minFade, start - from);
  const fadeOut = Math.max(minFade, to - end);
  for (let i = 0; i < fadeIn && i < samples.length; i++) samples[i] *= raisedCosine(i / fadeIn);
  for (let i = 0; i < fadeOut && i < samples.length; i++)
    samples[samples.length - 1 - i] *= raisedCosine(i / fadeOut);
  return { samples, sampleRate: pcm.sampleRate, speechStart: start - from, speechEnd: end - from };
}

function raisedCosine(x: number): number {
  return 0.5 - 0.5 * Math.cos(Math.PI * x);
}
