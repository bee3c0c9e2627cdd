/**
 * Measures the clip clock's anchor for src/audio/dsp/clock.ts: which clip frame was on screen at
 * which capture-context time. requestVideoFrameCallback gives the frame's exact display time
 * (performance clock) and media time; getOutputTimestamp converts that to context time.
 */
import { presentedContextTime } from '../../../audio/dsp/clock';
import type { CaptureClock } from '../../../audio/capture/recorder';
import type { TimelineAnchor } from '../../../workers/encoder-types';

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void,
  ) => number;
};

/** Resolves with the anchor for the first frame shown after playback starts. Call before play(). */
export function anchorAtFirstFrame(video: HTMLVideoElement, clock: CaptureClock): Promise<TimelineAnchor> {
  const v = video as FrameCallbackVideo;
  const anchor = (perfMs: number, mediaTime: number): TimelineAnchor => ({
    contextTime: presentedContextTime(clock.outputTimestamp(), perfMs),
    mediaTime,
    playbackRate: video.playbackRate || 1,
    outputLatency: clock.outputLatency,
    inputLatency: clock.inputLatency,
  });
  return new Promise((resolve) => {
    if (v.requestVideoFrameCallback) {
      v.requestVideoFrameCallback((_now, meta) => resolve(anchor(meta.expectedDisplayTime, meta.mediaTime)));
      return;
    }
    // No frame callbacks (older Safari): the `playing` event and currentTime, good to a frame or so.
    video.addEventListener('playing', () => resolve(anchor(performance.now(), video.currentTime)), {
      once: true,
    });
  });
}

export function seek(video: HTMLVideoElement, time: number): Promise<void> {
  if (Math.abs(video.currentTime - time) < 1e-3) return Promise.resolve();
  return new Promise((resolve) => {
    video.addEventListener('seeked', () => resolve(), { once: true });
    video.currentTime = time;
  });
}

/** Resolves when the clip reaches `time` (or ends); rejects if `signal` aborts. Calls `tick` every frame. */
export function playUntil(
  video: HTMLVideoElement,
  time: number,
  signal: AbortSignal,
  tick: (t: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let raf = 0;
    const done = () => {
      cancelAnimationFrame(raf);
      video.removeEventListener('ended', done);
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      cancelAnimationFrame(raf);
      video.removeEventListener('ended', done);
      reject(signal.reason);
    };
    const loop = () => {
      const t = video.currentTime;
      tick(t);
      if (t >= time) done();
      else raf = requestAnimationFrame(loop);
    };
    video.addEventListener('ended', done, { once: true });
    signal.addEventListener('abort', onAbort, { once: true });
    raf = requestAnimationFrame(loop);
  });
}
