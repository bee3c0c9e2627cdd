import { describe, expect, it } from 'vitest';
import type { CaptureClock } from '../../../src/audio/capture/recorder';
import { FOLLOW_TOLERANCE_SECONDS } from '../../../src/audio/constants';
import { ClipFollower, FOLLOW_STILL_MS } from '../../../src/app/lib/clip-follower';
import { FOLLOW_READ_EVERY_MS } from '../../../src/audio/constants';
import type { TimelineAnchor } from '../../../src/workers/encoder-types';

/** The capture context's clock runs with the page's: context time (s) = performance.now() / 1000. */
const clock: CaptureClock = {
  outputTimestamp: () => ({ contextTime: 10, performanceTime: 10_000 }),
  outputLatency: 0.02,
  inputLatency: 0.01,
};
/** The first frame, clip time 0, shown at 1 s. */
const first: TimelineAnchor = {
  contextTime: 1,
  mediaTime: 0,
  playbackRate: 1,
  outputLatency: 0.02,
  inputLatency: 0.01,
};

type FrameCallback = (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void;

/**
 * A clip and the page's 50 ms tick: `mediaAt(ms)` says which clip time is shown at each page time;
 * frame callbacks are answered by the next frame (every 40 ms) with the time it is shown.
 */
function follow(mediaAt: (ms: number) => number, opts: { frameCallbacks?: boolean; untilMs: number }) {
  const asked: FrameCallback[] = [];
  let requests = 0;
  const video = {
    playbackRate: 1,
    requestVideoFrameCallback:
      opts.frameCallbacks === false
        ? undefined
        : (cb: FrameCallback) => {
            asked.push(cb);
            return ++requests;
          },
  } as unknown as HTMLVideoElement;
  const moves: TimelineAnchor[] = [];
  const since: number[] = [];
  const follower = new ClipFollower(video, clock, first, (a, s) => {
    moves.push(a);
    since.push(s);
  });
  let frame = 1000;
  for (let now = 1000; now <= opts.untilMs; now += 10) {
    // Frames every 40 ms; a frame shown answers the callbacks asked before it.
    if (now >= frame) {
      for (const cb of asked.splice(0)) cb(now, { expectedDisplayTime: now, mediaTime: mediaAt(now) });
      frame += 40;
    }
    if (now % 50 === 0) follower.tick(mediaAt(now), now);
  }
  return { moves, requests, since };
}

/** Where the windows now expect the clip at page time `ms`, as the follower's last anchor says. */
const lag = (moves: TimelineAnchor[]) => (moves.at(-1)?.contextTime ?? first.contextTime) - first.contextTime;

describe('ClipFollower: the take’s windows stay on the clip', () => {
  it('leaves the windows where they are while the clip plays as planned', () => {
    const { moves } = follow((ms) => (ms - 1000) / 1000, { untilMs: 20_000 });
    expect(moves).toEqual([]);
  });

  it('moves them by how long the clip stood still mid-take, to within the tolerance', () => {
    // Playing, then standing at 3 s for a whole second (its media waiting on the network), then on.
    const mediaAt = (ms: number) => (ms < 4000 ? (ms - 1000) / 1000 : ms < 5000 ? 3 : (ms - 2000) / 1000);
    const { moves, since } = follow(mediaAt, { untilMs: 9000 });
    expect(moves.length).toBeGreaterThan(0);
    // Each move says where the clip stood: windows that began before it keep their start.
    expect(since.every((s) => s > 2.9 && s <= 3)).toBe(true);
    expect(Math.abs(lag(moves) - 1)).toBeLessThanOrEqual(FOLLOW_TOLERANCE_SECONDS);
    // Only the anchor's time moves: the clip's rate and the latencies stay the take's.
    expect(moves.at(-1)).toMatchObject({
      mediaTime: 0,
      playbackRate: 1,
      outputLatency: 0.02,
      inputLatency: 0.01,
    });
  });

  it('follows the clip while it still stands, before it plays on', () => {
    const mediaAt = (ms: number) => (ms < 4000 ? (ms - 1000) / 1000 : 3);
    const { moves } = follow(mediaAt, { untilMs: 6000 });
    // Standing since 4 s: at 6 s the windows wait about 2 s later, trailing by the time it takes to see it.
    expect(lag(moves)).toBeGreaterThan(2 - FOLLOW_STILL_MS / 1000 - 0.2);
    expect(lag(moves)).toBeLessThanOrEqual(2);
  });

  it('moves them earlier when the clip jumps ahead of the capture clock (0.15 s)', () => {
    const mediaAt = (ms: number) => (ms - 1000) / 1000 + (ms >= 5000 ? 0.15 : 0);
    const { moves, since } = follow(mediaAt, { untilMs: 9000 });
    expect(moves).toHaveLength(1);
    expect(lag(moves)).toBeCloseTo(-0.15, 6);
    // Said from the first reading that found it moved: within a reading's interval after the jump.
    expect(since[0]).toBeGreaterThanOrEqual(4.15);
    expect(since[0]).toBeLessThanOrEqual(4.15 + FOLLOW_READ_EVERY_MS / 1000 + 0.05);
  });

  it('does not move them for one late frame, nor for a shift inside the tolerance', () => {
    const late = (ms: number) => (ms - 1000) / 1000 - (ms >= 4000 && ms < 4040 ? 0.3 : 0);
    expect(follow(late, { untilMs: 9000 }).moves).toEqual([]);
    const small = (ms: number) => (ms - 1000) / 1000 - 0.04;
    expect(follow(small, { untilMs: 9000 }).moves).toEqual([]);
  });

  it('asks for one frame about every FOLLOW_READ_EVERY_MS, not one per frame, and waits for it', () => {
    const { requests } = follow((ms) => (ms - 1000) / 1000, { untilMs: 3000 });
    expect(requests).toBeGreaterThanOrEqual(2000 / FOLLOW_READ_EVERY_MS - 1);
    expect(requests).toBeLessThanOrEqual(2000 / FOLLOW_READ_EVERY_MS + 1);
    // A frame not yet shown is not asked for again.
    let asked = 0;
    const video = {
      playbackRate: 1,
      requestVideoFrameCallback: () => ++asked,
    } as unknown as HTMLVideoElement;
    const follower = new ClipFollower(video, clock, first, () => {});
    for (let now = 1000; now < 3000; now += 50) follower.tick((now - 1000) / 1000, now);
    expect(asked).toBe(1);
  });

  it('without frame callbacks reads the clip time at its ticks', () => {
    const mediaAt = (ms: number) => (ms < 4000 ? (ms - 1000) / 1000 : ms < 5000 ? 3 : (ms - 2000) / 1000);
    const { moves } = follow(mediaAt, { frameCallbacks: false, untilMs: 9000 });
    expect(Math.abs(lag(moves) - 1)).toBeLessThanOrEqual(FOLLOW_TOLERANCE_SECONDS);
  });

  it('once stopped, neither a tick nor a frame answered later moves the windows', () => {
    const asked: FrameCallback[] = [];
    const video = {
      playbackRate: 1,
      requestVideoFrameCallback: (cb: FrameCallback) => asked.push(cb),
    } as unknown as HTMLVideoElement;
    const moves: TimelineAnchor[] = [];
    const follower = new ClipFollower(video, clock, first, (a) => moves.push(a));
    follower.tick(0, 1000);
    expect(asked).toHaveLength(1);
    follower.stop();
    for (let i = 0; i < 5; i++) asked[0](2000 + i, { expectedDisplayTime: 2000 + i * 300, mediaTime: 0 });
    for (let now = 1050; now < 3000; now += 50) follower.tick(0, now);
    expect(moves).toEqual([]);
  });
});
