import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpeechScore } from '../../../src/api/contract';
import type { Recorder } from '../../../src/audio/capture/recorder';
import { DubSession, type DubSessionDeps } from '../../../src/app/features/dub/dub-session';
import { UploadQueue } from '../../../src/app/stores/uploads/upload-queue';
import { idbUploadStore } from '../../../src/app/stores/uploads/upload-store';
import type { SubtitleLine } from '../../../src/app/lib/movie-detail';
import { EncoderBridge } from '../../../src/workers/encoder-bridge';

/**
 * A take must end: a worker that never answers or a clip that never seeks must not leave the dub page
 * in "preparing", and a clip that never starts or shows no frame must not leave it recording, with a
 * Stop button that does nothing.
 */
const open: MessagePort[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
});

/** Encoder workers over real MessageChannels; `answers` says whether startTake is ever answered. */
function workers(answers: boolean) {
  const spawned: { terminated: boolean }[] = [];
  const spawn = (): Worker => {
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    const state = { terminated: false };
    // A worker that hangs (e.g. its script never ran) simply never exposes its API.
    if (answers) Comlink.expose({ startTake: () => undefined }, port2);
    spawned.push(state);
    return Object.assign(port1, {
      terminate() {
        state.terminated = true;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { bridge: new EncoderBridge(spawn), spawned };
}

function recorder(): Recorder & { closed: number } {
  return {
    kind: 'worklet',
    closed: 0,
    clock: {
      outputTimestamp: () => ({ contextTime: 0, performanceTime: 0 }),
      outputLatency: 0,
      inputLatency: 0,
    },
    async startTake(encoder) {
      await (encoder as unknown as { startTake(): Promise<void> }).startTake();
    },
    finishTake: () => Promise.reject(new Error('not reached')),
    onLevel: () => () => {},
    async close() {
      this.closed++;
    },
  };
}

/**
 * A paused clip at 0 s. `seeks`: 'yes' ends every seek in `seeked`; 'never' never does; 'fails-once'
 * ends the first seek in a media error (as when a range request is refused), after which only load()
 * brings it back.
 */
function clip(seeks: 'yes' | 'never' | 'fails-once') {
  const target = Object.assign(new EventTarget(), {
    duration: 30,
    muted: false,
    playbackRate: 1,
    error: null as { message: string } | null,
    seekRequests: [] as number[],
    loads: 0,
    pause() {},
    load() {
      target.loads++;
      target.error = null;
      time = 0;
      queueMicrotask(() => target.dispatchEvent(new Event('loadedmetadata')));
    },
  });
  let time = 0;
  let failures = seeks === 'fails-once' ? 1 : 0;
  Object.defineProperty(target, 'currentTime', {
    get: () => time,
    set: (t: number) => {
      target.seekRequests.push(t);
      if (seeks === 'never') return;
      if (target.error) return; // a dead element does not seek
      if (failures > 0) {
        failures--;
        target.error = { message: 'PIPELINE_ERROR_READ: data source error' };
        queueMicrotask(() => target.dispatchEvent(new Event('error')));
        return;
      }
      time = t;
      queueMicrotask(() => target.dispatchEvent(new Event('seeked')));
    },
  });
  return target as unknown as HTMLVideoElement & { seekRequests: number[]; loads: number };
}

const line = (start: number): SubtitleLine =>
  ({ id: `line-${start}`, startTime_m: start, endTime_m: start + 2 }) as unknown as SubtitleLine;

/**
 * `video` given a play(): 'never' leaves its promise pending and the clip standing still (WebKitGTK
 * after a seek back); 'no-frame' answers and plays, but no frame is ever shown (no `playing` event,
 * no frame callback). The plays asked for are counted.
 */
function playing(video: HTMLVideoElement, how: 'never' | 'no-frame') {
  const v = Object.assign(video, {
    paused: true,
    plays: 0,
    play() {
      v.plays++;
      if (how === 'never') return new Promise<void>(() => {});
      v.paused = false;
      return Promise.resolve();
    },
    pause() {
      v.paused = true;
    },
  });
  return v;
}

function session(
  bridge: EncoderBridge,
  made: ReturnType<typeof recorder>[],
  prepareTimeoutMs = 80,
  more: Partial<DubSessionDeps> = {},
) {
  const queue = new UploadQueue({
    store: idbUploadStore(createStore(`prepare-${Math.random()}`, 'pending')),
    send: () => new Promise<SpeechScore>(() => {}),
    learner: () => 'u:learner-1',
    onScored: () => {},
    onState: () => {},
  });
  const s = new DubSession({
    filmId: 'film-1',
    queue,
    bridge,
    createRecorder: async () => {
      const r = recorder();
      made.push(r);
      return r;
    },
    sources: new Map(),
    prepareTimeoutMs,
    ...more,
  });
  return { s, queue };
}

describe('getting a take ready', () => {
  it('gives up on a worker that never answers: idle again, a message to retry, worker and microphone released', async () => {
    const { bridge, spawned } = workers(false);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made);
    const result = await s.lineRetake(clip('yes'), line(5));
    expect(result).toBeNull();
    expect(s.phase.value).toBe('idle');
    expect(s.error.value).toBe('not-ready');
    expect(spawned).toHaveLength(1);
    expect(spawned[0].terminated).toBe(true);
    expect(made[0].closed).toBe(1);
    // The next take starts from scratch: a new worker and a newly opened microphone.
    await s.lineRetake(clip('yes'), line(5));
    expect(spawned).toHaveLength(2);
    expect(made).toHaveLength(2);
    queue.dispose();
  });

  it('gives up on a clip that never seeks', async () => {
    const { bridge, spawned } = workers(true);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made);
    const video = clip('never');
    expect(await s.lineRetake(video, line(5))).toBeNull();
    expect(video.seekRequests).toEqual([3.5]); // the run-up before the line: asked for, never reached
    expect(s.phase.value).toBe('idle');
    expect(s.error.value).toBe('not-ready');
    expect(spawned[0].terminated).toBe(true);
    expect(made[0].closed).toBe(1);
    queue.dispose();
  });

  it('loads the clip again when it fails during the seek (a refused range request), then counts in', async () => {
    const { bridge } = workers(true);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made, 5_000);
    const video = clip('fails-once');
    const take = s.lineRetake(video, line(5));
    await vi.waitFor(() => expect([s.phase.value, s.error.value]).toEqual(['count-in', null]));
    expect(video.loads).toBe(1);
    expect(video.seekRequests).toEqual([3.5, 3.5]);
    expect(video.currentTime).toBe(3.5);
    s.stop();
    await take;
    queue.dispose();
  });

  it('a clip that is already in error is loaded again before the seek', async () => {
    const { bridge } = workers(true);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made, 5_000);
    const video = clip('yes');
    (video as unknown as { error: unknown }).error = { message: 'earlier network error' };
    const take = s.lineRetake(video, line(5));
    await vi.waitFor(() => expect([s.phase.value, s.error.value]).toEqual(['count-in', null]));
    expect(video.loads).toBe(1);
    expect(video.seekRequests).toEqual([3.5]);
    s.stop();
    await take;
    queue.dispose();
  });

  it('Stop while getting ready returns to idle at once, without an error', async () => {
    const { bridge, spawned } = workers(false);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made, 60_000);
    const take = s.lineRetake(clip('yes'), line(5));
    await vi.waitFor(() => expect(spawned).toHaveLength(1));
    expect(s.phase.value).toBe('preparing');
    s.stop();
    expect(await take).toBeNull();
    expect(s.phase.value).toBe('idle');
    expect(s.error.value).toBeNull();
    expect(spawned[0].terminated).toBe(true);
    queue.dispose();
  });

  it('after a take the level rests and the microphone is released; the next take opens it again', async () => {
    const { bridge } = workers(true);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made, 5_000);
    const take = s.lineRetake(clip('yes'), line(5));
    await vi.waitFor(() => expect(s.phase.value).toBe('count-in'));
    // A finished take this time, and a reading on the meter during it.
    made[0].finishTake = async () => ({ skipped: [] }) as never;
    s.level.value = { rms: 0.3, peak: 0.5, frames: 128, dropped: 0 } as never;
    s.stop();
    await take;
    expect(s.error.value).toBeNull();
    expect(s.phase.value).toBe('idle');
    expect(s.level.value).toBeNull();
    await vi.waitFor(() => expect(made[0].closed).toBe(1));
    const next = s.lineRetake(clip('yes'), line(5));
    await vi.waitFor(() => expect(made).toHaveLength(2));
    s.stop();
    await next;
    queue.dispose();
  });

  it('a take that is ready in time is not cut by the timeout', async () => {
    const { bridge } = workers(true);
    const made: ReturnType<typeof recorder>[] = [];
    const { s, queue } = session(bridge, made, 80);
    const take = s.lineRetake(clip('yes'), line(5));
    await vi.waitFor(() => expect([s.phase.value, s.error.value]).toEqual(['count-in', null]));
    await new Promise((r) => setTimeout(r, 200)); // well past the timeout, still counting in
    expect(s.phase.value).toBe('count-in');
    expect(s.error.value).toBeNull();
    s.stop(); // finishes the take normally: finishTake is reached (and fails in this stand-in)
    await take;
    queue.dispose();
  });
});

/** The clips a take can wait on for good: one whose play() never answers, one that shows no frame. */
const waitingClips = [
  ['a scene take whose clip never starts', 'never', false],
  ['a scene take whose clip shows no frame', 'no-frame', false],
  ['a retake with a lead-in whose clip never starts', 'never', true],
  ['a retake with a lead-in whose clip shows no frame', 'no-frame', true],
] as const;

/** A scene take (or a retake of its second line) on a clip that plays `how`, with no count-in. */
function takeOnClip(how: 'never' | 'no-frame', leadIn: boolean, more: Partial<DubSessionDeps> = {}) {
  const { bridge } = workers(true);
  const made: ReturnType<typeof recorder>[] = [];
  const lines = [line(1), line(5)];
  const { s, queue } = session(bridge, made, 5_000, { countInSeconds: 0, filmLines: () => lines, ...more });
  const video = playing(clip('yes'), how);
  const take = leadIn ? s.lineRetake(video, lines[1]) : s.sceneTake(video, lines);
  return { s, queue, made, lines, video, take };
}

describe('Stop ends a take that waits on the clip', () => {
  it.each(waitingClips)('%s: idle again, no error, the take finished', async (_, how, leadIn) => {
    const { s, queue, made, lines, video, take } = takeOnClip(how, leadIn);
    // The take waits for the clip here; without Stop it would wait until CLIP_START_WAIT_MS.
    await vi.waitFor(() => expect(video.plays).toBe(1), { timeout: 5_000 });
    expect(made).toHaveLength(1);
    let finished = 0;
    made[0].finishTake = async () => {
      finished++;
      return { skipped: lines.map((l) => l.id) } as never;
    };
    s.stop();
    expect(await take).toEqual(expect.objectContaining({ skipped: lines.map((l) => l.id) }));
    expect(finished).toBe(1);
    expect(s.phase.value).toBe('idle');
    expect(s.error.value).toBeNull();
    expect(video.paused).toBe(true);
    queue.dispose();
  });
});

describe('a take that waits on the clip ends by itself after CLIP_START_WAIT_MS', () => {
  it.each(waitingClips)(
    '%s: idle again, the clip problem said, the microphone released',
    async (_, how, leadIn) => {
      const { s, queue, made, video, take } = takeOnClip(how, leadIn, { clipStartWaitMs: 100 });
      expect(await take).toBeNull();
      expect(video.plays).toBe(1);
      expect(s.phase.value).toBe('idle');
      expect(s.error.value).toBe('clip-failed');
      expect(video.paused).toBe(true);
      expect(made).toHaveLength(1);
      expect(made[0].closed).toBe(1);
      queue.dispose();
    },
  );
});
