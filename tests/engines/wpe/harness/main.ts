/**
 * The dub page's capture path without a microphone, for an engine that has none (WPE 2.38): a
 * decoded recording played into the app's own AudioWorklet recorder (src/audio/capture/
 * worklet-recorder.ts), whose PCM goes to the app's own encoder worker (src/workers/), which
 * resamples it, reads its live pitch and cuts two subtitle windows, exactly as in a take.
 * tests/engines/wpe/wpe.test.ts builds this page with Vite and calls `runCaptureSmoke`.
 */
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../../../src/audio/constants';
import { WorkletRecorder } from '../../../../src/audio/capture/worklet-recorder';
import { EncoderBridge } from '../../../../src/workers/encoder-bridge';
import type { PipelineStats, TakeSummary } from '../../../../src/workers/encoder-types';

/** Two lines on the recording's own clock (s): the first window opens after the capture flows. */
const SUBTITLES = [
  { id: 'line-1', startSeconds: 0.6, endSeconds: 1.6 },
  { id: 'line-2', startSeconds: 2, endSeconds: 3 },
];
const MARGIN_SECONDS = DEFAULT_WINDOW_MARGIN_SECONDS;

export interface CaptureSmoke {
  contextState: string;
  sampleRate: number;
  kernel: PipelineStats['kernel'];
  stats: number;
  voicedStats: number;
  windows: { id: string; complete: boolean; durationMs: number; wavBytes: number }[];
  summary: TakeSummary;
}

async function runCaptureSmoke(wavUrl: string): Promise<CaptureSmoke> {
  const context = new AudioContext({ latencyHint: 'playback' });
  const buffer = await context.decodeAudioData(await (await fetch(wavUrl)).arrayBuffer());
  const source = new AudioBufferSourceNode(context, { buffer, loop: true });
  const recorder = await WorkletRecorder.fromNode(context, source);
  const stats: PipelineStats[] = [];
  const windows: CaptureSmoke['windows'] = [];
  try {
    source.start();
    const summary = await new EncoderBridge().run(async (api) => {
      await recorder.startTake(
        api,
        { takeId: 'take-smoke', marginSeconds: MARGIN_SECONDS },
        {
          onWindow: (w) => {
            windows.push({
              id: w.subtitlesId,
              complete: w.complete,
              durationMs: w.durationMs,
              wavBytes: w.wav.byteLength,
            });
          },
          onStats: (s) => {
            stats.push(s);
          },
        },
      );
      // The recording's time 0 is heard now; the lines are read on that clock.
      const t0 = context.currentTime;
      await api.setTimeline(
        { contextTime: t0, mediaTime: 0, playbackRate: 1, outputLatency: 0, inputLatency: 0 },
        SUBTITLES,
      );
      const end = SUBTITLES[SUBTITLES.length - 1].endSeconds + MARGIN_SECONDS + 0.3;
      await new Promise<void>((resolve) => {
        const wait = () => (context.currentTime - t0 >= end ? resolve() : setTimeout(wait, 50));
        wait();
      });
      return recorder.finishTake();
    });
    return {
      contextState: context.state,
      sampleRate: context.sampleRate,
      kernel: stats.at(-1)?.kernel ?? null,
      stats: stats.length,
      voicedStats: stats.filter((s) => s.pitchHz !== null).length,
      windows,
      summary,
    };
  } finally {
    source.stop();
    await recorder.close();
  }
}

(window as unknown as { runCaptureSmoke: typeof runCaptureSmoke }).runCaptureSmoke = runCaptureSmoke;
