/**
 * The encoder worker (Comlink). PCM arrives from the capture worklet over a transferred MessagePort;
 * each subtitle window leaves as a transferred wav ArrayBuffer. The page never touches samples.
 */
import * as Comlink from 'comlink';
import { decodeWav, toMono } from '../audio/dsp/wav';
import type { WindowSpec } from '../audio/dsp/windows';
import type { WorkletToWorker } from '../audio/worklet/messages';
import type { EncoderApi, TakeCallbacks } from './encoder-api';
import type { TakeOptions, TakeSummary, TimelineAnchor } from './encoder-types';
import { TakePipeline } from './take-pipeline';

let take: TakePipeline | null = null;
let port: MessagePort | null = null;
let ended: Promise<void> = Promise.resolve();
let markEnded: () => void = () => {};
let takeError: Error | null = null;
/** Fallback path: capture-clock frame of the next polyfill slice. */
let sliceFrame = 0;

function stopListening(): void {
  if (port) {
    port.onmessage = null;
    port.close();
    port = null;
  }
}

const api: EncoderApi = {
  startTake(capturePort: MessagePort | null, options: TakeOptions, callbacks: TakeCallbacks): void {
    stopListening();
    takeError = null;
    const current = new TakePipeline(
      options,
      (w) => callbacks.onWindow(Comlink.transfer(w, [w.wav])),
      (s) => callbacks.onStats?.(s),
    );
    take = current;
    ended = new Promise((resolve) => {
      markEnded = resolve;
    });
    if (!capturePort) return;
    port = capturePort;
    const live = capturePort;
    live.onmessage = (e: MessageEvent<WorkletToWorker>) => {
      const msg = e.data;
      if (msg.type === 'pcm') {
        try {
          current.ingest(new Float32Array(msg.buffer), msg.frames, msg.startFrame, msg.sampleRate);
        } catch (err) {
          takeError = err instanceof Error ? err : new Error(String(err));
          console.error('[encoder] take failed', err);
        }
        // Hand the buffer back so the worklet never allocates.
        live.postMessage({ type: 'recycle', buffer: msg.buffer }, [msg.buffer]);
      } else if (msg.type === 'end') {
        markEnded();
      }
    };
  },

  setTimeline(anchor: TimelineAnchor, subtitles): Promise<WindowSpec[]> {
    if (!take) return Promise.reject(new Error('setTimeline before startTake: start the take first.'));
    return take.setTimeline(anchor, subtitles);
  },

  retime(anchor: TimelineAnchor, sinceMedia: number): void {
    take?.retime(anchor, sinceMedia);
  },

  pushWav(wav: ArrayBuffer, firstSliceStartSeconds?: number): void {
    if (!take) throw new Error('pushWav before startTake: start the take first.');
    const decoded = decodeWav(wav);
    const mono = toMono(decoded);
    if (firstSliceStartSeconds !== undefined)
      sliceFrame = Math.round(firstSliceStartSeconds * decoded.sampleRate);
    take.ingest(mono, mono.length, sliceFrame, decoded.sampleRate);
    sliceFrame += mono.length;
  },

  async finishTake(fallback?: boolean): Promise<TakeSummary> {
    const current = take;
    if (!current) throw new Error('finishTake without a take.');
    // Worklet path: wait for its `end` so the last chunk is in. Fallback path: nothing more will come.
    if (port && !fallback) await ended;
    stopListening();
    take = null;
    const summary = current.finish();
    if (takeError) throw takeError;
    return summary;
  },

  abortTake(): void {
    stopListening();
    markEnded();
    take = null;
  },
};

Comlink.expose(api);
