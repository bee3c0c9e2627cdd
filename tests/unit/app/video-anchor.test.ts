import { describe, expect, test, vi } from 'vitest';
import type { CaptureClock } from '../../../src/audio/capture/recorder';
import { anchorAtFirstFrame } from '../../../src/app/lib/video-anchor';

type FrameCallback = (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void;

/** A video whose presented frames the test drives, and a clock whose context time equals perf time. */
function fakes() {
  let pending: FrameCallback | null = null;
  const video = {
    playbackRate: 1,
    requestVideoFrameCallback: (cb: FrameCallback) => {
      pending = cb;
      return 1;
    },
  } as unknown as HTMLVideoElement;
  const present = (perfMs: number, mediaTime: number) => {
    const cb = pending;
    pending = null;
    cb?.(perfMs, { expectedDisplayTime: perfMs, mediaTime });
  };
  const clock: CaptureClock = {
    outputTimestamp: () => ({ contextTime: 100, performanceTime: 100_000 }),
    outputLatency: 0,
    inputLatency: 0,
  };
  return { video, present, clock };
}

describe('anchorAtFirstFrame', () => {
  test('anchors on the first frame of an advancing clip, not on a first frame the engine then holds', async () => {
    const { video, present, clock } = fakes();
    const anchor = anchorAtFirstFrame(video, clock);
    // WebKitGTK: the seeked-to frame is shown at once, then held for 5 s before playback moves.
    present(100_000, 0);
    present(105_000, 0);
    present(105_040, 0.04);
    await expect(anchor).resolves.toMatchObject({ mediaTime: 0.04, contextTime: 105.04 });
  });

  test('a clip that never advances gets its first frame as anchor after the stall time', async () => {
    vi.useFakeTimers();
    try {
      const { video, present, clock } = fakes();
      const anchor = anchorAtFirstFrame(video, clock, 8000);
      present(100_000, 2);
      await vi.advanceTimersByTimeAsync(8000);
      await expect(anchor).resolves.toMatchObject({ mediaTime: 2, contextTime: 100 });
    } finally {
      vi.useRealTimers();
    }
  });
});
