/**
 * Measures the clip clock's anchor for src/audio/dsp/clock.ts: which clip frame was on screen at
 * which capture-context time. requestVideoFrameCallback gives the frame's exact display time
 * (performance clock) and media time; getOutputTimestamp converts that to context time.
 */
import { presentedContextTime } from '../../audio/dsp/clock';
import type { CaptureClock } from '../../audio/capture/recorder';
import type { TimelineAnchor } from '../../workers/encoder-types';

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void,
  ) => number;
};

/**
 * Resolves with the anchor for the first frame shown once the clip advances after play() (call before
 * play()). Not the first frame shown: WebKitGTK presents the frame it was seeked to, then holds it for
 * seconds while its media pipeline starts, and an anchor on that frame placed every window seconds
 * early (tests/engines/journeys.ts). A clip that never advances gets the first frame's anchor after
 * `stallMs`, and the take's stall check (playUntil) ends it.
 */
export function anchorAtFirstFrame(
  video: HTMLVideoElement,
  clock: CaptureClock,
  stallMs = STALL_MS,
): Promise<TimelineAnchor> {
  const v = video as FrameCallbackVideo;
  const anchor = (perfMs: number, mediaTime: number): TimelineAnchor => ({
    contextTime: presentedContextTime(clock.outputTimestamp(), perfMs),
    mediaTime,
    playbackRate: video.playbackRate || 1,
    outputLatency: clock.outputLatency,
    inputLatency: clock.inputLatency,
  });
  return new Promise((resolve) => {
    let first: { perfMs: number; mediaTime: number } | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = (perfMs: number, mediaTime: number): boolean => {
      if (!first) {
        first = { perfMs, mediaTime };
        timer = setTimeout(
          () => resolve(anchor(first?.perfMs ?? perfMs, first?.mediaTime ?? mediaTime)),
          stallMs,
        );
        return false;
      }
      if (mediaTime <= first.mediaTime) return false;
      clearTimeout(timer);
      resolve(anchor(perfMs, mediaTime));
      return true;
    };
    const request = v.requestVideoFrameCallback?.bind(v);
    if (request) {
      const onFrame = (_now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => {
        if (!frame(meta.expectedDisplayTime, meta.mediaTime)) request(onFrame);
      };
      request(onFrame);
      return;
    }
    // No frame callbacks (older Safari): `playing`, then each timeupdate, with currentTime, good to a
    // frame or so.
    const onTime = () => {
      if (frame(performance.now(), video.currentTime)) video.removeEventListener('timeupdate', onTime);
    };
    video.addEventListener('playing', onTime, { once: true });
    video.addEventListener('timeupdate', onTime);
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
 * How often `playUntil` looks at the clip position. Not every animation frame: a frame callback makes
 * the browser run a main-thread frame 60 times a second for the whole take, and line stages and the
 * stop position need no finer step than this (the windows themselves are cut on the capture clock).
 */
export const PLAY_TICK_MS = 50;

/**
 * How long the clip may stand still while it should play before `playUntil` calls it stalled: its
 * media can stop loading mid-take (the session ended, so the server refuses the next range), and a
 * take must still end.
 */
export const STALL_MS = 8000;

/**
 * Resolves when the clip reaches `time` (or ends, or stands still for `stallMs`: `onStall` is told);
 * rejects if `signal` aborts. Calls `tick` every PLAY_TICK_MS.
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
      if (t !== last.t || video.paused) last = { t, at: now };
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
