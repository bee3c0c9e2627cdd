import { describe, expect, it } from 'vitest';
import { resample } from '../../../src/audio/dsp/resample';
import { decodeWav } from '../../../src/audio/dsp/wav';
import type { EncodedWindow, PipelineStats, TimelineAnchor } from '../../../src/workers/encoder-types';
import { TakePipeline } from '../../../src/workers/take-pipeline';
import { noise } from './signals';

const RATE = 48000;
// Clip time 0 is shown at context time 1 s; capture starts at context time 0.5 s (frame 24000).
const anchor: TimelineAnchor = {
  contextTime: 1,
  mediaTime: 0,
  playbackRate: 1,
  outputLatency: 0,
  inputLatency: 0,
};
const subtitles = [
  { id: 's1', startSeconds: 0.5, endSeconds: 1.5 },
  { id: 's2', startSeconds: 1.6, endSeconds: 2.25 }, // margins overlap s1's
  { id: 's3', startSeconds: 3, endSeconds: 4 },
];

function run(
  chunk: number,
  opts: {
    timelineAfterFrames?: number;
    dropAt?: number;
    /** The clip's clock re-anchored once this many frames are in, the clip having moved at `since`. */
    retime?: { afterFrames: number; anchor: TimelineAnchor; since: number };
    seconds?: number;
    plannedAnchor?: TimelineAnchor;
  } = {},
) {
  const input = noise(RATE * (opts.seconds ?? 5), 9).map((v) => v * 0.5);
  const planAnchor = opts.plannedAnchor ?? anchor;
  const windows: EncodedWindow[] = [];
  const stats: PipelineStats[] = [];
  const take = new TakePipeline(
    { takeId: 'take-0001', marginSeconds: 0.25 },
    (w) => windows.push(w),
    (s) => stats.push(s),
  );
  const firstFrame = 24000;
  let planned = opts.timelineAfterFrames === undefined ? take.setTimeline(planAnchor, subtitles) : null;
  let retimed = false;
  for (let at = 0; at < input.length; at += chunk) {
    if (planned === null && at >= (opts.timelineAfterFrames as number))
      planned = take.setTimeline(planAnchor, subtitles);
    if (opts.retime && !retimed && at >= opts.retime.afterFrames) {
      take.retime(opts.retime.anchor, opts.retime.since);
      retimed = true;
    }
    const part = input.subarray(at, Math.min(input.length, at + chunk));
    if (opts.dropAt !== undefined && at === opts.dropAt) continue; // the worklet lost this chunk
    take.ingest(part, part.length, firstFrame + at, RATE);
  }
  const summary = take.finish();
  return { input, windows, stats, summary, planned };
}

describe('TakePipeline (the encoder worker’s per-take code)', () => {
  it('emits one exact 16 kHz wav per subtitle window, margins included, whatever the chunking', async () => {
    const reference = resample(
      noise(RATE * 5, 9).map((v) => v * 0.5),
      RATE,
      16000,
    );
    for (const chunk of [128, 2048, 5000]) {
      const { windows, summary, planned } = run(chunk);
      const plan = await planned;
      expect(summary.windows).toBe(3);
      expect(summary.skipped).toEqual([]);
      expect(windows.map((w) => w.subtitlesId)).toEqual(['s1', 's2', 's3']);
      // s1: clip 0.25…1.75 s → context 1.25…2.75 s → capture frames from 0.5 s → stream 12000…36000.
      expect(plan?.[0]).toEqual({ id: 's1', start: 12000, end: 36000, lineEnd: 32000 });
      for (const w of windows) {
        expect(w.complete).toBe(true);
        const wav = decodeWav(w.wav);
        expect(wav.sampleRate).toBe(16000);
        const got = wav.channels[0];
        expect(got.length).toBe(w.end - w.start);
        expect(w.durationMs).toBeCloseTo(((w.end - w.start) / 16000) * 1000, 6);
        // Same samples as resampling the whole input in one go, to 16-bit precision.
        for (let i = 0; i < got.length; i++) {
          if (Math.abs(got[i] - reference[w.start + i]) > 1 / 32768 + 1e-7)
            throw new Error(`${w.subtitlesId}[${i}]`);
        }
      }
    }
  });

  it('plans windows handed over after capture began from the look-back audio', async () => {
    const { windows, planned } = run(2048, { timelineAfterFrames: RATE * 1.5 });
    expect((await planned)?.map((w) => w.id)).toEqual(['s1', 's2', 's3']);
    expect(windows.every((w) => w.complete)).toBe(true);
  });

  it('moves the windows not yet closed when the clip re-anchors mid-take, as if planned there', () => {
    // The clip stood still 0.4 s at stream 1.5 s (clip 1 s), inside s1's window: s1 keeps what it holds and runs
    // 0.4 s longer; s2 and s3, still ahead, equal the windows planned with that anchor at first.
    const later = { ...anchor, contextTime: anchor.contextTime + 0.4 };
    const moved = run(2048, { seconds: 6, retime: { afterFrames: RATE * 1.5, anchor: later, since: 1 } });
    const planned = run(2048, { seconds: 6, plannedAnchor: later });
    const unmoved = run(2048, { seconds: 6 });
    const of = (r: ReturnType<typeof run>, id: string) => {
      const w = r.windows.find((x) => x.subtitlesId === id) as EncodedWindow;
      return { ...w, samples: Array.from(decodeWav(w.wav).channels[0]) };
    };
    for (const id of ['s2', 's3']) {
      expect(of(moved, id)).toMatchObject({ complete: true, start: of(planned, id).start });
      expect(of(moved, id).samples, id).toEqual(of(planned, id).samples);
      expect(of(moved, id).samples, id).not.toEqual(of(unmoved, id).samples);
    }
    const s1 = of(moved, 's1');
    expect(s1).toMatchObject({ complete: true, start: of(unmoved, 's1').start, end: of(planned, 's1').end });
    expect(s1.samples.slice(0, of(unmoved, 's1').samples.length)).toEqual(of(unmoved, 's1').samples);
    expect(s1.samples.slice(-of(planned, 's1').samples.length / 2)).toEqual(
      of(planned, 's1').samples.slice(-of(planned, 's1').samples.length / 2),
    );
  });

  it('fills frames the worklet dropped with silence so later lines keep their place', () => {
    const { windows, summary } = run(2048, { dropAt: 2048 * 50 });
    expect(summary.droppedFrames).toBe(2048);
    const s3 = decodeWav(windows.find((w) => w.subtitlesId === 's3')?.wav as ArrayBuffer).channels[0];
    const ok = run(2048).windows.find((w) => w.subtitlesId === 's3');
    expect(Array.from(s3)).toEqual(Array.from(decodeWav(ok?.wav as ArrayBuffer).channels[0]));
  });

  it('reports live stats about ten times a second', () => {
    const { stats } = run(2048);
    expect(stats.length).toBeGreaterThanOrEqual(45);
    expect(stats.length).toBeLessThanOrEqual(51);
    expect(stats.at(-1)?.capturedSeconds).toBeGreaterThan(4.8);
  });

  it('says which dot-product kernel the take runs on: SIMD where WebAssembly has it, plain JS when told', () => {
    const kernelOf = (simd?: boolean) => {
      const stats: PipelineStats[] = [];
      const take = new TakePipeline(
        { takeId: 'take-0002', marginSeconds: 0.25, simd },
        () => {},
        (s) => stats.push(s),
      );
      expect(take.stats().kernel).toBeNull();
      const chunk = noise(RATE, 3);
      take.ingest(chunk, chunk.length, 0, RATE);
      return stats.at(-1)?.kernel;
    };
    expect(kernelOf()).toBe('simd'); // Node has WebAssembly SIMD
    expect(kernelOf(false)).toBe('js');
  });

  it('hands out a window cut short by the end of the take as incomplete', () => {
    const out: EncodedWindow[] = [];
    const short = new TakePipeline({ takeId: 't-short-2', marginSeconds: 0 }, (w) => out.push(w));
    void short.setTimeline({ ...anchor, contextTime: 0 }, [{ id: 'x', startSeconds: 0.1, endSeconds: 2 }]);
    short.ingest(noise(RATE), RATE, 0, RATE);
    const summary = short.finish();
    expect(out).toHaveLength(1);
    expect(out[0].complete).toBe(false);
    expect(decodeWav(out[0].wav).channels[0].length).toBe(14400); // 0.1 s … 1.0 s at 16 kHz
    expect(summary.skipped).toEqual([]);
  });

  describe("closing a line at the learner's silence", () => {
    /** Room noise everywhere, a voice (louder noise) from clip 0.3 s until `voiceUntil` (clip s). */
    function takeOf(voiceUntil: number, room: number) {
      const input = noise(RATE * 3, 5).map((v) => v * room);
      const voice = noise(RATE * 3, 6);
      // Clip time t is capture second 0.5 + t (anchor above), so frame (0.5 + t) * RATE.
      for (let i = Math.round(0.8 * RATE); i < Math.round((0.5 + voiceUntil) * RATE); i++)
        input[i] += voice[i] * 0.3;
      const windows: EncodedWindow[] = [];
      const take = new TakePipeline({ takeId: 'take-silence', marginSeconds: 0.25 }, (w) => windows.push(w));
      void take.setTimeline(anchor, [subtitles[0]]); // s1: clip 0.5 … 1.5 s, window 0.25 … 1.75 s
      const closedAt: number[] = [];
      for (let at = 0; at < input.length; at += 2048) {
        const part = input.subarray(at, Math.min(input.length, at + 2048));
        take.ingest(part, part.length, 24000 + at, RATE);
        if (windows.length > closedAt.length) closedAt.push((at + part.length) / RATE - 0.5);
      }
      take.finish();
      expect(windows).toHaveLength(1);
      return {
        window: windows[0],
        samples: decodeWav(windows[0].wav).channels[0],
        closedAtClip: closedAt[0],
      };
    }

    it('closes at the line end when the learner stopped before it', () => {
      const { window, samples, closedAtClip } = takeOf(1.3, 0.001);
      expect(window.complete).toBe(true);
      // Closed with the first block past the line end (clip 1.5 s), not at the window's end (1.75 s).
      expect(closedAtClip).toBeGreaterThanOrEqual(1.5);
      expect(closedAtClip).toBeLessThan(1.5 + 2048 / RATE + 0.01);
      expect(window.tailMs).toBeLessThan(50);
      expect(samples.length).toBe(Math.round((1.5 - 0.25) * 16000 + (window.tailMs / 1000) * 16000));
      expect(window.durationMs).toBeCloseTo((samples.length / 16000) * 1000, 6);
    });

    it('keeps the whole margin while the learner speaks past the line end', () => {
      const { window, samples } = takeOf(1.7, 0.001);
      expect(window.complete).toBe(true);
      expect(window.tailMs).toBeCloseTo(250, 6);
      expect(samples.length).toBe(24000);
    });

    it('keeps the whole margin in a room too loud to tell silence', () => {
      const { window, samples } = takeOf(1.3, 0.1);
      expect(window.tailMs).toBeCloseTo(250, 6);
      expect(samples.length).toBe(24000);
    });
  });
});
