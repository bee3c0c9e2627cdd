/**
 * One take inside the encoder worker: capture-rate PCM in, one 16 kHz 16-bit wav per subtitle window
 * out. Pure apart from `performance` (present in workers and Node), so the bench runs this exact code.
 *
 *   pcm chunk ─▶ gap check (silence for dropped frames) ─▶ StreamingResampler ─▶ LivePitch
 *                                                                            └▶ WindowSlicer ─▶ encodeWav16
 */
import {
  ENDPOINT_ABOVE_FLOOR_DB,
  ENDPOINT_SILENCE_MAX_DBFS,
  ENDPOINT_SILENCE_MIN_DBFS,
  ENDPOINT_SILENCE_SECONDS,
  LIVE_STATS_SECONDS,
  TARGET_SAMPLE_RATE,
} from '../audio/constants';
import { MediaClock } from '../audio/dsp/clock';
import { LivePitch } from '../audio/dsp/live-pitch';
import { StreamingResampler } from '../audio/dsp/resample';
import { encodeWav16 } from '../audio/dsp/wav';
import {
  type ClosedWindow,
  planWindows,
  type SubtitleWindowTimes,
  type WindowSpec,
  WindowSlicer,
} from '../audio/dsp/windows';
import type { EncodedWindow, PipelineStats, TakeOptions, TakeSummary, TimelineAnchor } from './encoder-types';

const STATS_EVERY_SAMPLES = TARGET_SAMPLE_RATE * LIVE_STATS_SECONDS; // 10 Hz to the page at most
const MAX_GAP_SECONDS = 5;
const FLOOR_BLOCK_SAMPLES = TARGET_SAMPLE_RATE / 10;
const HANG_SAMPLES = Math.round(ENDPOINT_SILENCE_SECONDS * TARGET_SAMPLE_RATE);
/** dBFS of a full-scale sine's RMS → mean square. */
const meanSquareOf = (dbfs: number) => 10 ** (dbfs / 10);

const epochMs = () => performance.timeOrigin + performance.now();

export class TakePipeline {
  private resampler: StreamingResampler | null = null;
  private out = new Float32Array(0);
  /** Silence fed for dropped frames; allocated at the first gap. */
  private silence: Float32Array | null = null;
  private readonly slicer: WindowSlicer;
  private readonly pitch: LivePitch;
  private captureRate = 0;
  private firstFrame = -1;
  private nextFrame = 0;
  private dropped = 0;
  private captured = 0;
  private windowsDone = 0;
  private sinceStats = 0;
  private workMs = 0;
  private lastEncodeMs = 0;
  private rmsAcc = 0;
  private rmsCount = 0;
  /** The quietest 100 ms block's mean square so far (digital silence aside): the room's noise. */
  private noiseFloor = Number.POSITIVE_INFINITY;
  private floorAcc = 0;
  private floorCount = 0;
  private pendingTimeline: {
    anchor: TimelineAnchor;
    subtitles: SubtitleWindowTimes[];
    resolve: (w: WindowSpec[]) => void;
  } | null = null;
  /** The take's lines and the clock their windows were last planned on (`retime` plans them again). */
  private subtitles: SubtitleWindowTimes[] | null = null;
  private clock: MediaClock | null = null;

  constructor(
    readonly options: TakeOptions,
    private readonly emitWindow: (w: EncodedWindow) => void,
    private readonly emitStats: (s: PipelineStats) => void = () => {},
  ) {
    this.pitch = new LivePitch(TARGET_SAMPLE_RATE, undefined, { simd: options.simd });
    const lookback = Math.round((options.lookbackSeconds ?? 6) * TARGET_SAMPLE_RATE);
    this.slicer = new WindowSlicer(
      [],
      (w) => this.encode(w),
      0,
      lookback,
      (samples, filled) => this.endsInSilence(samples, filled),
    );
  }

  /** Capture frames → windows. Planned now if PCM has started, else when the first chunk arrives. */
  setTimeline(anchor: TimelineAnchor, subtitles: SubtitleWindowTimes[]): Promise<WindowSpec[]> {
    return new Promise((resolve) => {
      this.pendingTimeline = { anchor, subtitles, resolve };
      if (this.firstFrame >= 0) this.planPending();
    });
  }

  /**
   * The clip's clock anchored again mid-take (it stood still, or moved against the capture clock, at
   * clip time `sinceMedia`): the windows not yet closed move to where the new anchor puts their lines
   * (WindowSlicer.move; an open window that began before `sinceMedia` keeps its start).
   */
  retime(anchor: TimelineAnchor, sinceMedia: number): void {
    if (this.pendingTimeline) this.pendingTimeline.anchor = anchor;
    if (!this.subtitles || !this.clock) return;
    const from = Math.round(this.clock.mediaToStreamIndex(sinceMedia, TARGET_SAMPLE_RATE));
    this.slicer.move(this.plan(anchor, this.subtitles), from);
  }

  /** `samples[0..frames)` captured at `sampleRate`, the first at capture-clock frame `startFrame`. */
  ingest(samples: Float32Array, frames: number, startFrame: number, sampleRate: number): void {
    const t0 = performance.now();
    if (!this.resampler) {
      this.captureRate = sampleRate;
      this.resampler = new StreamingResampler(sampleRate, TARGET_SAMPLE_RATE, {
        maxChunk: 16384,
        simd: this.options.simd,
      });
      this.firstFrame = startFrame;
      this.nextFrame = startFrame;
      this.planPending();
    }
    if (sampleRate !== this.captureRate) {
      throw new Error(`Capture sample rate changed mid-take (${this.captureRate} → ${sampleRate} Hz).`);
    }
    let skip = 0;
    if (startFrame > this.nextFrame) {
      // Frames the worklet had to drop: keep the timeline by inserting silence of the same length.
      const gap = Math.min(startFrame - this.nextFrame, MAX_GAP_SECONDS * sampleRate);
      this.dropped += gap;
      this.silence ??= new Float32Array(16384);
      const zeros = this.silence;
      for (let left = gap; left > 0; left -= zeros.length) this.feed(zeros, Math.min(left, zeros.length));
      this.nextFrame = startFrame;
    } else if (startFrame < this.nextFrame) {
      skip = Math.min(frames, this.nextFrame - startFrame); // overlap: never repeat audio
    }
    if (frames > skip) this.feed(skip ? samples.subarray(skip, frames) : samples, frames - skip);
    this.nextFrame = startFrame + frames;
    this.captured += frames;
    this.workMs += performance.now() - t0;
  }

  /** Ends the stream: flushes the resampler, hands out open windows (truncated), reports the rest. */
  finish(): TakeSummary {
    let skipped: string[] = [];
    if (this.resampler) {
      this.ensureOut(this.resampler.maxOutput(this.resampler.taps));
      const n = this.resampler.flush(this.out);
      this.slice(n);
    }
    skipped = this.slicer.finish().map((w) => w.id);
    this.pendingTimeline?.resolve([]);
    this.pendingTimeline = null;
    return {
      takeId: this.options.takeId,
      windows: this.windowsDone,
      skipped,
      capturedSeconds: this.captureRate ? this.captured / this.captureRate : 0,
      droppedFrames: this.dropped,
      firstCaptureFrame: this.firstFrame,
      captureRate: this.captureRate,
    };
  }

  private planPending(): void {
    const p = this.pendingTimeline;
    if (!p) return;
    this.pendingTimeline = null;
    this.subtitles = p.subtitles;
    const windows = this.plan(p.anchor, p.subtitles);
    this.slicer.add(windows);
    p.resolve(windows);
  }

  private plan(anchor: TimelineAnchor, subtitles: SubtitleWindowTimes[]): WindowSpec[] {
    const clock = new MediaClock({
      ...anchor,
      sampleRate: this.captureRate,
      firstCaptureFrame: this.firstFrame,
    });
    this.clock = clock;
    return planWindows(subtitles, (m) => clock.mediaToStreamIndex(m, TARGET_SAMPLE_RATE), {
      marginSeconds: this.options.marginSeconds,
    });
  }

  private feed(samples: Float32Array, frames: number): void {
    const r = this.resampler as StreamingResampler;
    this.ensureOut(r.maxOutput(frames));
    const n = r.process(frames === samples.length ? samples : samples.subarray(0, frames), this.out);
    this.slice(n);
  }

  private slice(n: number): void {
    if (n === 0) return;
    const chunk = this.out.subarray(0, n);
    this.pitch.push(chunk);
    let squares = 0;
    for (let i = 0; i < n; i++) squares += chunk[i] * chunk[i];
    this.rmsAcc += squares;
    this.rmsCount += n;
    this.trackFloor(squares, n);
    this.slicer.push(chunk);
    this.sinceStats += n;
    if (this.sinceStats >= STATS_EVERY_SAMPLES) {
      this.sinceStats -= STATS_EVERY_SAMPLES;
      this.emitStats(this.stats());
    }
  }

  stats(): PipelineStats {
    const seconds = this.captureRate ? this.captured / this.captureRate : 0;
    const rms = this.rmsCount ? Math.sqrt(this.rmsAcc / this.rmsCount) : 0;
    this.rmsAcc = 0;
    this.rmsCount = 0;
    const pitchHz = this.pitch.estimate();
    return {
      takeId: this.options.takeId,
      captureRate: this.captureRate,
      capturedSeconds: seconds,
      droppedFrames: this.dropped,
      openWindows: this.slicer.openCount,
      remainingWindows: this.slicer.remaining,
      windowsDone: this.windowsDone,
      pitchHz,
      rms,
      workMsPerSecond: seconds ? this.workMs / seconds : 0,
      lastEncodeMs: this.lastEncodeMs,
      kernel: this.resampler?.kernelKind ?? null,
    };
  }

  /** Block mean squares at about 100 ms; a chunk's squares spread evenly over it is close enough. */
  private trackFloor(squares: number, n: number): void {
    this.floorAcc += squares;
    this.floorCount += n;
    if (this.floorCount < FLOOR_BLOCK_SAMPLES) return;
    const meanSquare = this.floorAcc / this.floorCount;
    if (meanSquare > 0) this.noiseFloor = Math.min(this.noiseFloor, meanSquare);
    this.floorAcc = 0;
    this.floorCount = 0;
  }

  /** True when the last ENDPOINT_SILENCE_SECONDS of `samples[0, filled)` are silence (constants.ts). */
  private endsInSilence(samples: Float32Array, filled: number): boolean {
    if (filled < HANG_SAMPLES) return false;
    let squares = 0;
    for (let i = filled - HANG_SAMPLES; i < filled; i++) squares += samples[i] * samples[i];
    const floor = Number.isFinite(this.noiseFloor)
      ? this.noiseFloor * meanSquareOf(ENDPOINT_ABOVE_FLOOR_DB)
      : 0;
    const threshold = Math.min(
      meanSquareOf(ENDPOINT_SILENCE_MAX_DBFS),
      Math.max(meanSquareOf(ENDPOINT_SILENCE_MIN_DBFS), floor),
    );
    return squares / HANG_SAMPLES < threshold;
  }

  private ensureOut(size: number): void {
    if (this.out.length < size) this.out = new Float32Array(size);
  }

  private encode(w: ClosedWindow): void {
    const closedAtMs = epochMs();
    const t0 = performance.now();
    const wav = encodeWav16(w.samples, TARGET_SAMPLE_RATE);
    this.lastEncodeMs = performance.now() - t0;
    this.windowsDone++;
    const lineEnd = w.lineEnd ?? w.end;
    this.emitWindow({
      takeId: this.options.takeId,
      subtitlesId: w.id,
      wav,
      durationMs: (w.samples.length / TARGET_SAMPLE_RATE) * 1000,
      tailMs: (Math.max(0, w.start + w.samples.length - lineEnd) / TARGET_SAMPLE_RATE) * 1000,
      complete: w.complete,
      start: w.start,
      end: w.end,
      closedAtMs,
      encodedAtMs: epochMs(),
    });
  }
}
