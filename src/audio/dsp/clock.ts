/**
 * Explicit mapping between the clip's timeline (HTMLVideoElement.currentTime, "media time") and the
 * capture timeline (AudioContext frames seen by the AudioWorklet, then 16 kHz stream indices).
 *
 * The chain, for a line the learner says while its frame is on screen:
 *   media time m  ─(playback started at anchor, rate r)→  wall time P the frame is shown
 *   P  ─(AudioContext.getOutputTimestamp: perf ↔ context time at the speaker)→  context time heard
 *   + outputLatency (speaker lags the render clock) + inputLatency (mic → worklet)  →  context time captured
 *   × sampleRate − first captured frame  →  capture index;  × 16000 / sampleRate  →  stream index.
 * Every term is a number the page measures and hands to the worker, so the cut is reproducible and tested.
 */

export interface ClockAnchor {
  /** Capture (AudioContext) sample rate, Hz. */
  sampleRate: number;
  /**
   * Context time (s) whose audio reaches the speaker at the instant the clip frame `mediaTime` is shown.
   * See `presentedContextTime`.
   */
  contextTime: number;
  /** Clip time (s) of that frame. */
  mediaTime: number;
  /** HTMLMediaElement.playbackRate during the take. */
  playbackRate: number;
  /** AudioContext.outputLatency (s): render clock → speaker. */
  outputLatency: number;
  /** Microphone → AudioWorklet latency (s): MediaTrackSettings.latency, else AudioContext.baseLatency. */
  inputLatency: number;
  /** AudioWorklet `currentFrame` of the first captured sample (stream index 0). */
  firstCaptureFrame: number;
}

export class ClockError extends Error {
  readonly code = 'BAD_CLOCK';
  constructor(message: string) {
    super(message);
    this.name = 'ClockError';
  }
}

/**
 * Context time heard at the speaker at wall time `perfMs`, from AudioContext.getOutputTimestamp()
 * (`contextTime` is the frame being played out at `performanceTime`).
 */
export function presentedContextTime(
  outputTimestamp: { contextTime: number; performanceTime: number },
  perfMs: number,
): number {
  return outputTimestamp.contextTime + (perfMs - outputTimestamp.performanceTime) / 1000;
}

export class MediaClock {
  constructor(readonly anchor: ClockAnchor) {
    const a = anchor;
    for (const key of Object.keys(a) as (keyof ClockAnchor)[]) {
      if (!Number.isFinite(a[key]))
        throw new ClockError(`Clock anchor field ${key} is not a number (${a[key]}).`);
    }
    if (a.sampleRate <= 0 || a.playbackRate <= 0) {
      throw new ClockError(
        `Clock needs a positive sample rate and playback rate (got ${a.sampleRate}, ${a.playbackRate}).`,
      );
    }
    if (a.outputLatency < 0 || a.inputLatency < 0) throw new ClockError('Latencies cannot be negative.');
  }

  /** Context time (s) at which the voice answering clip time `media` reaches the AudioWorklet. */
  mediaToCaptureContextTime(media: number): number {
    const a = this.anchor;
    return a.contextTime + (media - a.mediaTime) / a.playbackRate + a.outputLatency + a.inputLatency;
  }

  /** Capture index (frames since the first captured sample, fractional) for clip time `media`. */
  mediaToCaptureIndex(media: number): number {
    return this.mediaToCaptureContextTime(media) * this.anchor.sampleRate - this.anchor.firstCaptureFrame;
  }

  /** Inverse of mediaToCaptureIndex. */
  captureIndexToMedia(index: number): number {
    const a = this.anchor;
    const contextTime = (index + a.firstCaptureFrame) / a.sampleRate;
    return a.mediaTime + (contextTime - a.contextTime - a.outputLatency - a.inputLatency) * a.playbackRate;
  }

  /** Stream index at `outRate` (the resampler keeps index ∝ capture index exactly). */
  mediaToStreamIndex(media: number, outRate: number): number {
    return (this.mediaToCaptureIndex(media) * outRate) / this.anchor.sampleRate;
  }

  streamIndexToMedia(index: number, outRate: number): number {
    return this.captureIndexToMedia((index * this.anchor.sampleRate) / outRate);
  }
}
