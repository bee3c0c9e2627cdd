/**
 * Measures the clip clock's anchor for src/audio/dsp/clock.ts: which clip frame was on screen at
 * which capture-context time. requestVideoFrameCallback gives the frame's exact display time
 * (performance clock) and media time; getOutputTimestamp converts that to context time.
 */
import { presentedContextTime } from '../../audio/dsp/clock';
import type { CaptureClock } from '../../audio/capture/recorder';
import type { TimelineAnchor } from '../../workers/encoder-types';

export type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void,
  ) => number;
};

/** The anchor for clip time `mediaTime` shown at `perfMs` (performance clock). */
export function anchorAt(
  video: HTMLVideoElement,
  clock: CaptureClock,
  perfMs: number,
  mediaTime: number,
): TimelineAnchor {
  return {
    contextTime: presentedContextTime(clock.outputTimestamp(), perfMs),
    mediaTime,
    playbackRate: video.playbackRate || 1,
    outputLatency: clock.outputLatency,
    inputLatency: clock.inputLatency,
  };
}

/** Resolves with the anchor for the first frame shown after playback starts. Call before play(). */
export function anchorAtFirstFrame(video: HTMLVideoElement, clock: CaptureClock): Promise<TimelineAnchor> {
  const v = video as FrameCallbackVideo;
  return new Promise((resolve) => {
    if (v.requestVideoFrameCallback) {
      v.requestVideoFrameCallback((_now, meta) =>
        resolve(anchorAt(video, clock, meta.expectedDisplayTime, meta.mediaTime)),
      );
      return;
    }
    // No frame callbacks (older Safari): the `playing` event and currentTime, good to a frame or so.
    video.addEventListener(
      'playing',
      () => resolve(anchorAt(video, clock, performance.now(), video.currentTime)),
      {
        once: true,
      },
    );
  });
}

/**
 * How long a take waits for its clip to start and show its first frame with no sign that the clip is
 * getting on (CLIP_PROGRESS_EVENTS), before it ends with the clip's problem, so a clip that never
 * plays, or a frame that never shows, does not hold the take for good. Generous: WebKitGTK showed a
 * scene take's first frame 4 s after play() on a quiet machine (docs/browsers.md), and a phone's
 * network can be slower still.
 */
export const CLIP_START_WAIT_MS = 20_000;

/**
 * What a clip that is getting on does: its data arrives (progress, loadeddata, canplay), it starts
 * (playing) and its time moves (timeupdate). A device slow to start it is not a dead clip: a WebKitGTK
 * scene take at load 30 on 2 cores ended with "the clip did not load" 20 s after play() when the bound
 * counted from there, on a clip the same machine served (tests/engines/journeys.ts).
 */
const CLIP_PROGRESS_EVENTS = ['progress', 'loadeddata', 'canplay', 'canplaythrough', 'playing', 'timeupdate'];

/**
 * Settles as `started` does (the clip started and its first frame shown), or rejects with a ClipError
 * once `waitMs` passed without it and without a sign of the clip getting on (CLIP_PROGRESS_EVENTS).
 */
export function clipStartedWithin<T>(
  video: HTMLVideoElement,
  started: Promise<T>,
  waitMs: number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(giveUp, waitMs);
    };
    const done = () => {
      clearTimeout(timer);
      for (const e of CLIP_PROGRESS_EVENTS) video.removeEventListener(e, wait);
    };
    const giveUp = () => {
      done();
      reject(
        new ClipError(`The clip did not start and show a frame, and did not get on, for ${waitMs} ms`, {
          cause: `paused ${video.paused}, readyState ${video.readyState}, networkState ${video.networkState}`,
        }),
      );
    };
    for (const e of CLIP_PROGRESS_EVENTS) video.addEventListener(e, wait);
    wait();
    started.then(
      (v) => {
        done();
        resolve(v);
      },
      (e: unknown) => {
        done();
        reject(e);
      },
    );
  });
}

/**
 * The clip failed to load or read (a range request answered 503, a dropped connection): the media
 * element stays in error, and never seeks or plays again, until it is loaded anew.
 */
export class ClipError extends Error {
  override name = 'ClipError';
}

/**
 * Seeks the clip and resolves on `seeked`; rejects with the signal's reason if it aborts first. A clip
 * in error (now, or failing during the seek) is loaded again once and the seek repeated, so one failed
 * request does not leave the learner unable to record until a page reload.
 */
export async function seek(video: HTMLVideoElement, time: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  if (video.error) await reloadClip(video, signal);
  if (Math.abs(video.currentTime - time) < 1e-3) return;
  try {
    await seekOnce(video, time, signal);
  } catch (e) {
    if (!(e instanceof ClipError)) throw e;
    console.warn('[dub] the clip failed while seeking; loading it again:', e.cause);
    await reloadClip(video, signal);
    await seekOnce(video, time, signal);
  }
}

function seekOnce(video: HTMLVideoElement, time: number, signal?: AbortSignal): Promise<void> {
  const seeked = until(video, 'seeked', signal);
  video.currentTime = time;
  return seeked;
}

async function reloadClip(video: HTMLVideoElement, signal?: AbortSignal): Promise<void> {
  const loaded = until(video, 'loadedmetadata', signal);
  video.load();
  await loaded;
}

/** Resolves on `event`; rejects with a ClipError on the element's `error`, or with the signal's reason. */
function until(video: HTMLVideoElement, event: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      video.removeEventListener(event, onEvent);
      video.removeEventListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const onEvent = () => {
      done();
      resolve();
    };
    const onError = () => {
      done();
      // The screen words it for the learner (`dub.problem.clip-failed`); the media error's own text
      // (demuxer internals) goes to the log as the cause.
      reject(new ClipError('The clip failed to load or read', { cause: video.error?.message }));
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    video.addEventListener(event, onEvent);
    video.addEventListener('error', onError);
    signal?.addEventListener('abort', onAbort);
  });
}

/**
 * Starts the clip and resolves once it plays: when `play()`'s promise resolves, or as soon as the
 * clip's time moves on while it is not paused, whichever comes first; rejects if `play()` is refused
 * first. WebKitGTK can leave the promise pending for good after a seek back from the clip's end: the
 * clip advances at readyState HAVE_CURRENT_DATA and no `playing` event comes (a retake after a scene
 * take in tests/engines/journeys.ts), and a take that waits on the promise never leaves its count-in.
 */
export function startPlaying(video: HTMLVideoElement): Promise<void> {
  const from = video.currentTime;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: { cause: unknown }) => {
      if (settled) return;
      settled = true;
      video.removeEventListener('timeupdate', moved);
      if (error) reject(error.cause);
      else resolve();
    };
    const moved = () => {
      if (!video.paused && video.currentTime !== from) settle();
    };
    video.addEventListener('timeupdate', moved);
    video.play().then(
      () => settle(),
      (cause: unknown) => settle({ cause }),
    );
  });
}

/**
 * How often `playUntil` looks at the clip position. Not every animation frame: a frame callback makes
 * the browser run a main-thread frame 60 times a second for the whole take, and line stages and the
 * stop position need no finer step than this (the windows themselves are cut on the capture clock).
 */
export const PLAY_TICK_MS = 50;

/**
 * How long the clip may stand still while it should play before `playUntil` calls it stalled: its
 * media can stop loading mid-take (the session ended, so the server refuses the next range), or the
 * browser can pause it (an interruption: a call, the page hidden), and a take must still end.
 */
export const STALL_MS = 8000;

/**
 * Resolves when the clip reaches `time` (or ends, or stands still for `stallMs`, paused or not:
 * `onStall` is told); rejects if `signal` aborts. Calls `tick` every PLAY_TICK_MS.
 */
export function playUntil(
  video: HTMLVideoElement,
  time: number,
  signal: AbortSignal,
  tick: (t: number) => void,
  onStall?: () => void,
  stallMs = STALL_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      video.removeEventListener('ended', done);
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      clearTimeout(timer);
      video.removeEventListener('ended', done);
      reject(signal.reason);
    };
    let last = { t: -1, at: performance.now() };
    const loop = () => {
      const t = video.currentTime;
      tick(t);
      const now = performance.now();
      // Only the take pauses the clip, after this loop: paused here is the browser's doing, and the
      // clip stands still as at a stall. At its end the clip is paused and `ended` fires first.
      if (t !== last.t) last = { t, at: now };
      if (t >= time) done();
      else if (onStall && now - last.at >= stallMs) {
        onStall();
        done();
      } else timer = setTimeout(loop, PLAY_TICK_MS);
    };
    video.addEventListener('ended', done, { once: true });
    signal.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(loop, 0);
  });
}
