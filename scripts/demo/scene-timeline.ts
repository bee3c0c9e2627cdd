/**
 * Lays speech clips out on one track: a lead-in, the lines in order with natural gaps, a tail.
 * Cue times are whole milliseconds and sit exactly on each clip's detected speech.
 */
import type { SpeechClip } from './trim-speech';

export interface Cue {
  index: number;
  startMs: number;
  endMs: number;
}

export interface Timeline {
  sampleRate: number;
  samples: Float32Array;
  cues: Cue[];
  durationMs: number;
}

export const LEAD_IN_MS = 1000;
export const TAIL_MS = 1200;
/** Pauses between one line's speech and the next (0.6–1.2 s), cycled; fixed so builds repeat. */
const GAPS_MS = [800, 1000, 700, 1100, 900, 650, 1200, 850, 950, 750];

export function gapAfter(lineIndex: number, filmIndex: number): number {
  return GAPS_MS[(lineIndex + filmIndex * 3) % GAPS_MS.length];
}

/** Cue start/end for each clip, before any audio is placed. */
export function planCues(clips: SpeechClip[], filmIndex: number): Cue[] {
  const cues: Cue[] = [];
  let startMs = LEAD_IN_MS;
  clips.forEach((clip, i) => {
    const speechMs = Math.round(((clip.speechEnd - clip.speechStart) / clip.sampleRate) * 1000);
    cues.push({ index: i + 1, startMs, endMs: startMs + speechMs });
    startMs += speechMs + gapAfter(i, filmIndex);
  });
  return cues;
}

/**
 * Mixes clips onto a silent track. `anchor` decides how a clip sits in its cue: 'start' puts the
 * clip's speech onset on the cue start (the film itself); 'center' centres the speech in the cue
 * (a different speaker dubbing the film, whose lines are a little longer or shorter).
 */
export function placeClips(
  clips: SpeechClip[],
  cues: Cue[],
  sampleRate: number,
  anchor: 'start' | 'center' = 'start',
): Timeline {
  const last = cues[cues.length - 1];
  const durationMs = last.endMs + TAIL_MS;
  const samples = new Float32Array(Math.round((durationMs / 1000) * sampleRate));
  clips.forEach((clip, i) => {
    if (clip.sampleRate !== sampleRate) throw new Error('all clips on one timeline must share a sample rate');
    const cue = cues[i];
    const cueStart = Math.round((cue.startMs / 1000) * sampleRate);
    const cueLength = Math.round(((cue.endMs - cue.startMs) / 1000) * sampleRate);
    const speechLength = clip.speechEnd - clip.speechStart;
    const speechAt = anchor === 'start' ? cueStart : cueStart + Math.round((cueLength - speechLength) / 2);
    const at = speechAt - clip.speechStart;
    for (let j = 0; j < clip.samples.length; j++) {
      const k = at + j;
      if (k >= 0 && k < samples.length) samples[k] += clip.samples[j];
    }
  });
  return { sampleRate, samples, cues, durationMs };
}

/** Scales the whole track so its peak sits at `peakDbfs`; keeps the loudness differences between lines. */
export function normalizePeak(samples: Float32Array, peakDbfs = -1): void {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  if (peak === 0) return;
  const gain = 10 ** (peakDbfs / 20) / peak;
  for (let i = 0; i < samples.length; i++) samples[i] *= gain;
}
