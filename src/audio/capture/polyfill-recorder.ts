import * as Comlink from 'comlink';
import type { Remote } from 'comlink';
import type { EncoderApi, TakeCallbacks } from '../../workers/encoder-api';
import type { TakeOptions, TakeSummary } from '../../workers/encoder-types';
import { inputLatencyOf, openMicrophone } from './microphone';
import type { CaptureClock, LevelReading, Recorder } from './recorder';

/** Slice length: short enough that each line's wav is ready soon after the line ends. */
const SLICE_MS = 250;

/** The slice of audio-recorder-polyfill's MediaRecorder this file uses (the package ships no types). */
interface PolyfillMediaRecorder {
  start(timeslice?: number): void;
  stop(): void;
  addEventListener(type: 'dataavailable', listener: (e: Event & { data: Blob }) => void): void;
  addEventListener(type: 'stop' | 'start', listener: () => void): void;
}

/**
 * Fallback for browsers without AudioWorklet: audio-recorder-polyfill (ScriptProcessor + its own wav
 * worker) emits a wav slice every SLICE_MS; each slice is transferred to the same encoder worker,
 * which decodes it and runs the same resample → window → wav path.
 *
 * Its AudioContext is private to the polyfill, so this path keeps time on the performance clock
 * (capture start = the polyfill's `start` event); good to a render buffer or two, which the
 * window margins absorb. The worklet path is exact.
 */
export class PolyfillRecorder implements Recorder {
  readonly kind = 'polyfill' as const;
  readonly clock: CaptureClock;
  private recorder: PolyfillMediaRecorder | null = null;
  private encoder: Remote<EncoderApi> | null = null;
  private readonly listeners = new Set<(l: LevelReading) => void>();
  private sliceChain: Promise<void> = Promise.resolve();
  private startSeconds = 0;
  private first = true;
  private done: Promise<void> = Promise.resolve();

  private constructor(
    private readonly Ctor: new (stream: MediaStream) => PolyfillMediaRecorder,
    private readonly stream: MediaStream,
  ) {
    this.clock = {
      // On the performance clock "context time" is simply performance.now() in seconds.
      outputTimestamp: () => {
        const now = performance.now();
        return { contextTime: now / 1000, performanceTime: now };
      },
      outputLatency: 0,
      inputLatency: inputLatencyOf(stream),
    };
  }

  static async create(): Promise<PolyfillRecorder> {
    const stream = await openMicrophone();
    const mod = (await import('audio-recorder-polyfill')) as {
      default: new (s: MediaStream) => PolyfillMediaRecorder;
    };
    return new PolyfillRecorder(mod.default, stream);
  }

  async startTake(
    encoder: Remote<EncoderApi>,
    options: TakeOptions,
    callbacks: TakeCallbacks,
  ): Promise<void> {
    this.encoder = encoder;
    await encoder.startTake(null, options, Comlink.proxy(callbacks));
    const recorder = new this.Ctor(this.stream);
    this.recorder = recorder;
    this.first = true;
    let frames = 0;
    recorder.addEventListener('dataavailable', (e) => {
      // Chain the slices so they reach the worker in order even if arrayBuffer() resolves out of order.
      this.sliceChain = this.sliceChain.then(async () => {
        const wav = await e.data.arrayBuffer();
        if (wav.byteLength <= 44) return;
        const start = this.first ? this.startSeconds : undefined;
        this.first = false;
        frames += (wav.byteLength - 44) / 2;
        for (const l of this.listeners) l({ rms: 0, peak: 0, frames, dropped: 0, skipped: 0 });
        await encoder.pushWav(Comlink.transfer(wav, [wav]), start);
      });
    });
    this.done = new Promise((resolve) => recorder.addEventListener('stop', () => resolve()));
    await new Promise<void>((resolve) => {
      recorder.addEventListener('start', () => {
        this.startSeconds = performance.now() / 1000;
        resolve();
      });
      recorder.start(SLICE_MS);
    });
  }

  async finishTake(): Promise<TakeSummary> {
    const recorder = this.recorder;
    const encoder = this.encoder;
    if (!recorder || !encoder) throw new Error('finishTake without a running take.');
    recorder.stop();
    await this.done;
    await this.sliceChain;
    this.recorder = null;
    return encoder.finishTake(true);
  }

  onLevel(listener: (level: LevelReading) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.recorder) this.recorder.stop();
    for (const t of this.stream.getTracks()) t.stop();
    this.listeners.clear();
  }
}
