/** Data types of the encoder worker's API (the API itself is in encoder-api.ts). Types only, no DOM. */
import type { ClockAnchor } from '../audio/dsp/clock';

export interface TakeOptions {
  takeId: string;
  /** Seconds widened on both sides of each subtitle window. */
  marginSeconds: number;
  /** Audio kept to back-fill windows planned after they began (the count-in covers this). */
  lookbackSeconds?: number;
  /** false: the JS dot-product kernel even where WebAssembly SIMD runs (src/audio/dsp/dot.ts; bench, tests). */
  simd?: boolean;
}

/** The clip's clock as the page measured it; the worker adds the sample rate and first captured frame. */
export type TimelineAnchor = Omit<ClockAnchor, 'sampleRate' | 'firstCaptureFrame'>;

export interface EncodedWindow {
  takeId: string;
  subtitlesId: string;
  /** 16-bit PCM mono 16 kHz wav, transferred to the page. */
  wav: ArrayBuffer;
  durationMs: number;
  /**
   * Audio after the line's end: the whole trailing margin, or less when the window closed at the
   * learner's silence (src/audio/dsp/windows.ts).
   */
  tailMs: number;
  /** False when the take ended (or frames were lost) inside the window. */
  complete: boolean;
  /** Stream indices (16 kHz) of the window, margins included. */
  start: number;
  end: number;
  /** Epoch ms (performance.timeOrigin + now) when the window closed and when its wav was ready. */
  closedAtMs: number;
  encodedAtMs: number;
}

export interface PipelineStats {
  takeId: string;
  captureRate: number;
  /** Seconds of audio received from the capture. */
  capturedSeconds: number;
  /** Frames the worklet dropped (pool empty) plus gaps the worker filled with silence. */
  droppedFrames: number;
  openWindows: number;
  remainingWindows: number;
  windowsDone: number;
  pitchHz: number | null;
  rms: number;
  /** Time spent resampling + slicing + encoding per second of audio (ms/s), a CPU-load figure. */
  workMsPerSecond: number;
  lastEncodeMs: number;
  /**
   * The dot-product kernel the resampler runs on (src/audio/dsp/dot.ts; the live pitch chooses the
   * same way): 'simd' where the engine has WebAssembly SIMD, else 'js'; null before the first audio.
   */
  kernel: 'simd' | 'js' | null;
}

export interface TakeSummary {
  takeId: string;
  windows: number;
  /** Windows never reached because the take stopped first. */
  skipped: string[];
  capturedSeconds: number;
  droppedFrames: number;
  firstCaptureFrame: number;
  captureRate: number;
}
