/**
 * The encoder worker's typed API (one worker, one Comlink API, reached through encoder-bridge.ts).
 * Types only. Kept apart from encoder-types.ts because MessagePort is a DOM/worker type and the take
 * pipeline also runs in Node.
 */
import type { SubtitleWindowTimes, WindowSpec } from '../audio/dsp/windows';
import type { EncodedWindow, PipelineStats, TakeOptions, TakeSummary, TimelineAnchor } from './encoder-types';

export interface TakeCallbacks {
  onWindow(window: EncodedWindow): void;
  onStats?(stats: PipelineStats): void;
}

export interface EncoderApi {
  /** Starts a take fed by the capture worklet over `port` (transferred). */
  startTake(port: MessagePort | null, options: TakeOptions, callbacks: TakeCallbacks): void;
  /** Plans the subtitle windows once the clip's clock is known (may be called before the first PCM). */
  setTimeline(anchor: TimelineAnchor, subtitles: SubtitleWindowTimes[]): Promise<WindowSpec[]>;
  /** The clip's clock anchored again mid-take: windows not yet closed move (TakePipeline.retime). */
  retime(anchor: TimelineAnchor, sinceMedia: number): void;
  /**
   * Fallback path: a wav slice from audio-recorder-polyfill (transferred). The first slice gives its
   * start time in seconds on the recorder's clock; later slices follow it without a gap.
   */
  pushWav(wav: ArrayBuffer, firstSliceStartSeconds?: number): void;
  /** Resolves after the capture's `end` (or, for the fallback, at once) and every window is handed out. */
  finishTake(fallback?: boolean): Promise<TakeSummary>;
  abortTake(): void;
}
