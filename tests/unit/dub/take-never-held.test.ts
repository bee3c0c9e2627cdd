import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { TimelineAnchor } from '../../../src/workers/encoder-types';
import { ClipError, frameWithin, playUntil, startPlaying } from '../../../src/app/lib/video-anchor';

// A take waits on the clip three times: to start, for its first frame, and to reach the take's end.
// None of them may hold the take for good (src/app/lib/video-anchor.ts).

/** A clip standing at `at`, playing or paused, whose play() answers as `answer` says. */
function clip(at: number, { paused = false, answer = 'pending' as 'pending' | 'resolve' } = {}) {
  const target = new EventTarget();
  const plays: number[] = [];
  const c = Object.assign(target, {
    currentTime: at,
    paused,
    playbackRate: 1,
    readyState: 1,
    networkState: 2,
    play: () => {
      plays.push(c.currentTime);
      return answer === 'resolve' ? Promise.resolve() : new Promise<void>(() => {});
    },
    plays,
  });
  return c;
}
const asVideo = (c: ReturnType<typeof clip>) => c as unknown as HTMLVideoElement;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startPlaying', () => {
  test('a clip that neither answers play() nor moves ends the wait with a ClipError', async () => {
    const started = startPlaying(asVideo(clip(2)), undefined, 1000);
    const outcome = started.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(999);
    await vi.advanceTimersByTimeAsync(1);
    const e = await outcome;
    expect(e).toBeInstanceOf(ClipError);
    expect((e as ClipError).message).toContain('did not start');
  });

  test('Stop ends the wait with its reason', async () => {
    const stop = new AbortController();
    const started = startPlaying(asVideo(clip(2)), stop.signal, 1000);
    stop.abort(new DOMException('stopped', 'AbortError'));
    await expect(started).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('a clip that plays is not held by the timer', async () => {
    const started = startPlaying(asVideo(clip(2, { answer: 'resolve' })), undefined, 1000);
    await expect(started).resolves.toBeUndefined();
  });
});

describe('frameWithin', () => {
  const frameAnchor: TimelineAnchor = {
    contextTime: 5,
    mediaTime: 2.04,
    playbackRate: 1,
    outputLatency: 0.02,
    inputLatency: 0.01,
  };

  test("the first frame's anchor when a frame shows in time", async () => {
    let show: (a: TimelineAnchor) => void = () => {};
    const anchor = frameWithin(new Promise((r) => (show = r)), new AbortController().signal, 500);
    await vi.advanceTimersByTimeAsync(450);
    show(frameAnchor);
    await expect(anchor).resolves.toEqual(frameAnchor);
  });

  test('no frame within the wait: the take ends with a ClipError, not held for good', async () => {
    const anchor = frameWithin(new Promise(() => {}), new AbortController().signal, 500);
    const outcome = anchor.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(500);
    const e = await outcome;
    expect(e).toBeInstanceOf(ClipError);
    expect((e as ClipError).message).toContain('No clip frame');
  });

  test('Stop ends the wait with its reason', async () => {
    const stop = new AbortController();
    const anchor = frameWithin(new Promise(() => {}), stop.signal, 500);
    stop.abort(new DOMException('stopped', 'AbortError'));
    await expect(anchor).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('playUntil', () => {
  test('a clip the browser paused mid-take ends the take as a stall, not held for good', async () => {
    const c = clip(3, { paused: true });
    const onStall = vi.fn();
    let settled = false;
    const played = playUntil(asVideo(c), 10, new AbortController().signal, () => {}, onStall, 1000).then(
      () => {
        settled = true;
      },
    );
    await vi.advanceTimersByTimeAsync(900);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    await played;
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(c.plays, 'the take does not restart the clip').toEqual([]);
  });
});
