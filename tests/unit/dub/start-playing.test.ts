import { describe, expect, test, vi } from 'vitest';
import { ClipError, clipStartedWithin, startPlaying } from '../../../src/app/lib/video-anchor';

/** A clip whose play() answers as `answer` says; its time is moved by the test, with `timeupdate`. */
function fakeClip(answer: 'pending' | 'resolve' | 'reject') {
  const target = new EventTarget();
  const clip = Object.assign(target, {
    currentTime: 0.8,
    paused: true,
    play: () => {
      clip.paused = answer === 'reject';
      if (answer === 'resolve') return Promise.resolve();
      if (answer === 'reject') return Promise.reject(new DOMException('not allowed', 'NotAllowedError'));
      return new Promise<void>(() => {});
    },
    advance: (to: number) => {
      clip.currentTime = to;
      target.dispatchEvent(new Event('timeupdate'));
    },
  });
  return clip;
}

/**
 * The promise's state once pending microtasks have run: everything the fake clip does settles in a
 * few microtasks, so no timer is needed to tell "still pending" from "settled".
 */
async function settledWithin(p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return state;
}

describe('startPlaying (src/app/lib/video-anchor.ts)', () => {
  test('resolves once the clip advances although play() never answers (WebKitGTK after a seek back)', async () => {
    const clip = fakeClip('pending');
    const started = startPlaying(clip as unknown as HTMLVideoElement);
    expect(await settledWithin(started)).toBe('pending');
    clip.advance(0.8);
    expect(await settledWithin(started), 'a timeupdate without movement is not playing').toBe('pending');
    clip.advance(1.05);
    expect(await settledWithin(started)).toBe('resolved');
  });

  test("resolves with play()'s promise", async () => {
    await expect(startPlaying(fakeClip('resolve') as unknown as HTMLVideoElement)).resolves.toBeUndefined();
  });

  test('rejects with the reason play() was refused', async () => {
    await expect(startPlaying(fakeClip('reject') as unknown as HTMLVideoElement)).rejects.toMatchObject({
      name: 'NotAllowedError',
    });
  });
});

describe('clipStartedWithin (src/app/lib/video-anchor.ts)', () => {
  test('waits while the clip gets on, and gives up once it has shown no sign of it for the bound', async () => {
    vi.useFakeTimers();
    try {
      const clip = fakeClip('pending');
      const started = clipStartedWithin(clip as unknown as HTMLVideoElement, new Promise(() => {}), 1000);
      let error: unknown;
      started.catch((e: unknown) => {
        error = e;
      });
      // Its data arriving, then its time moving: 2.7 s in all, never 1 s without a sign.
      for (const event of ['progress', 'loadeddata', 'progress', 'canplay', 'timeupdate']) {
        await vi.advanceTimersByTimeAsync(900);
        clip.dispatchEvent(new Event(event));
      }
      expect(error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(999);
      expect(error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(error).toBeInstanceOf(ClipError);
      // Given up: a later event does not start the wait again.
      clip.dispatchEvent(new Event('progress'));
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('settles with the clip once it has started and shown its frame', async () => {
    const clip = fakeClip('pending');
    await expect(
      clipStartedWithin(clip as unknown as HTMLVideoElement, Promise.resolve('anchor'), 1000),
    ).resolves.toBe('anchor');
  });
});
