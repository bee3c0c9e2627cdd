/**
 * One recorder interface over two capture paths that feed the same encoder worker:
 * - `worklet`: AudioWorklet → MessagePort → worker (the normal path);
 * - `polyfill`: audio-recorder-polyfill's wav slices → worker.pushWav (browsers without AudioWorklet).
 */
import type { Remote } from 'comlink';
import type { EncoderApi, TakeCallbacks } from '../../workers/encoder-api';
import type { TakeOptions, TakeSummary } from '../../workers/encoder-types';

export type RecorderKind = 'worklet' | 'polyfill';

export interface LevelReading {
  rms: number;
  peak: number;
  /** Frames captured so far in this take. */
  frames: number;
  /** Frames lost because the encoder worker fell behind (the worklet's buffer pool ran dry). */
  dropped: number;
  /** Frames the browser never delivered between frames it did; the worker fills them with silence. */
  skipped: number;
}

/** What the clip clock needs from the capture side (see src/audio/dsp/clock.ts). */
export interface CaptureClock {
  /** Pairs a context time heard at the speaker with the performance.now() of that moment. */
  outputTimestamp(): { contextTime: number; performanceTime: number };
  outputLatency: number;
  inputLatency: number;
}

export interface Recorder {
  readonly kind: RecorderKind;
  readonly clock: CaptureClock;
  /** Starts capturing into a new take of the encoder worker. */
  startTake(encoder: Remote<EncoderApi>, options: TakeOptions, callbacks: TakeCallbacks): Promise<void>;
  /** Stops capturing and resolves once the worker handed out every window of the take. */
  finishTake(): Promise<TakeSummary>;
  onLevel(listener: (level: LevelReading) => void): () => void;
  /** Releases the microphone and the audio graph. */
  close(): Promise<void>;
}

/** `?recorder=polyfill` forces the fallback (tests, and kiosks whose AudioWorklet misbehaves). */
export function forcedRecorderKind(search: string): RecorderKind | null {
  const value = new URLSearchParams(search).get('recorder');
  return value === 'polyfill' || value === 'worklet' ? value : null;
}

export function supportsAudioWorklet(): boolean {
  return (
    typeof AudioWorkletNode !== 'undefined' &&
    typeof AudioContext !== 'undefined' &&
    'audioWorklet' in AudioContext.prototype
  );
}

export function chooseRecorderKind(search: string, workletSupported = supportsAudioWorklet()): RecorderKind {
  const forced = forcedRecorderKind(search);
  if (forced === 'polyfill') return 'polyfill';
  return workletSupported ? 'worklet' : 'polyfill';
}
