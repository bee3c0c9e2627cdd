import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { readToken } from '../../../src/api/token';
import { playUntil } from '../../../src/app/lib/video-anchor';
import { loadSoundSuggest } from '../../../src/app/screens/sound-suggest/sound-suggest-state';
import { takeInProgress, trackTake } from '../../../src/app/stores/takes-in-progress';
import { toasts } from '../../../src/app/stores/toast';
import { appServerForFile, expireSession, renderAppAt } from './render-app';

// A session that ends (1002) while a take is being recorded: the learner is warned at once, but the
// take is not cut off — the session is cleared and the login page shown when the take has ended, so
// its windows reach the upload store and are sent after the next login (stores/takes-in-progress.ts).
const server = appServerForFile();

test('1002 during a take: warned at once, cleared and sent to login only once the take has ended', async () => {
  expireSession(server, '登录信息已失效，请重新登录');
  const { here } = renderAppAt('/prpt/soundSuggest/7');
  await waitFor(() => expect(document.querySelector('[data-page="prpt/sound-suggest"]')).not.toBeNull());

  let endTake: () => void = () => undefined;
  const take = trackTake(new Promise<void>((resolve) => (endTake = resolve)));
  expect(takeInProgress()).toBe(true);
  await act(async () => {
    await loadSoundSuggest('7');
  });
  await waitFor(() => expect(toasts.value.map((t) => t.msg)).toContain('登录信息已失效'));
  // The take goes on: same page, the session not yet cleared.
  expect(here()).toBe('/prpt/soundSuggest/7');
  expect(readToken()).toBe('stale-token');

  await act(async () => {
    endTake();
    await take;
  });
  await waitFor(() => expect(here()).toBe('/prpt/login?redirect=%2Fprpt%2FsoundSuggest%2F7'));
  expect(readToken()).toBeNull();
  expect(takeInProgress()).toBe(false);
});

/**
 * playUntil on a clip at 3 s that should play to 10 s, stalled after 1 s standing still, on fake
 * timers: `settled` says whether it has resolved.
 */
function playUntilStall() {
  const video = Object.assign(new EventTarget(), {
    currentTime: 3,
    paused: false,
  }) as unknown as HTMLVideoElement & {
    currentTime: number;
    paused: boolean;
  };
  const onStall = vi.fn();
  let settled = false;
  const played = playUntil(video, 10, new AbortController().signal, () => undefined, onStall, 1000).then(
    () => {
      settled = true;
    },
  );
  return { video, onStall, played, settled: () => settled };
}

/** Standing still, the clip is not called stalled before the second, and is just after it. */
async function expectStalledAfterASecond(p: ReturnType<typeof playUntilStall>): Promise<void> {
  await vi.advanceTimersByTimeAsync(900);
  expect(p.settled()).toBe(false);
  await vi.advanceTimersByTimeAsync(300);
  await p.played;
  expect(p.onStall).toHaveBeenCalledTimes(1);
}

describe('a clip that stands still ends the take (playUntil reports the stall and resolves)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a clip that stops loading', async () => {
    await expectStalledAfterASecond(playUntilStall());
  });

  test('a clip the browser pauses mid-take (it does not hold the take for good)', async () => {
    const p = playUntilStall();
    // Playing: the clip moves on, so no stall however long it plays.
    for (let i = 0; i < 30; i++) {
      p.video.currentTime += 0.05;
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(p.onStall).not.toHaveBeenCalled();
    // The browser pauses it (an interruption): it stands still from here.
    p.video.paused = true;
    await expectStalledAfterASecond(p);
  });
});
