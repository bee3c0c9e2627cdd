/**
 * Keeps a take's windows on the clip after its start. The windows are planned from the clip's first
 * frame (anchorAtFirstFrame), as if it then played on without a break; a clip that stands still
 * mid-take (its media waiting on a phone's network, the browser pausing it) or moves against the
 * capture clock (WebKitGTK, docs/browsers.md) would leave every later line cut from the wrong sound.
 * The follower reads where the clip is against the take's clock and, when the reading holds, hands
 * the worker a new anchor, which moves the windows not yet closed (TakePipeline.retime).
 */
import { FOLLOW_READ_EVERY_MS, FOLLOW_READINGS, FOLLOW_TOLERANCE_SECONDS } from '../../audio/constants';
import type { CaptureClock } from '../../audio/capture/recorder';
import type { TimelineAnchor } from '../../workers/encoder-types';
import { anchorAt, type FrameCallbackVideo } from './video-anchor';

/**
 * How long the clip's time must stand still before it is read as standing still: longer than the
 * steps a browser moves `currentTime` in while it plays.
 */
export const FOLLOW_STILL_MS = 300;

export class ClipFollower {
  /**
   * Recent readings: how far behind its planned place each found the clip (s; negative: ahead), and
   * the clip time it was read at.
   */
  private readings: { drift: number; media: number }[] = [];
  private lastRead = Number.NEGATIVE_INFINITY;
  private frameAsked = false;
  private still = { t: Number.NaN, since: 0 };
  private stopped = false;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly clock: CaptureClock,
    private anchor: TimelineAnchor,
    /** Hands the worker the new anchor, and the clip time the clip moved at. */
    private readonly retime: (anchor: TimelineAnchor, sinceMedia: number) => void,
  ) {}

  /** Called while the clip plays with its time (`playUntil`'s tick). */
  tick(t: number, now = performance.now()): void {
    if (this.stopped) return;
    if (t !== this.still.t) this.still = { t, since: now };
    else if (now - this.still.since >= FOLLOW_STILL_MS) {
      // Standing still: the frame at `t` is still what the learner sees now.
      this.read(anchorAt(this.video, this.clock, now, t));
      return;
    }
    const v = this.video as FrameCallbackVideo;
    if (this.frameAsked || now - this.lastRead < FOLLOW_READ_EVERY_MS) return;
    this.lastRead = now;
    if (v.requestVideoFrameCallback) {
      this.frameAsked = true;
      v.requestVideoFrameCallback((_now, meta) => {
        this.frameAsked = false;
        if (!this.stopped) this.read(anchorAt(v, this.clock, meta.expectedDisplayTime, meta.mediaTime));
      });
    } else this.read(anchorAt(v, this.clock, now, t));
  }

  /** The take is over: no more readings, and none from a frame asked for before. */
  stop(): void {
    this.stopped = true;
  }

  private read(at: TimelineAnchor): void {
    const a = this.anchor;
    const planned = a.contextTime + (at.mediaTime - a.mediaTime) / a.playbackRate;
    this.readings.push({ drift: at.contextTime - planned, media: at.mediaTime });
    if (this.readings.length > FOLLOW_READINGS) this.readings.shift();
    if (this.readings.length < FOLLOW_READINGS) return;
    const drifts = this.readings.map((r) => r.drift).sort((x, y) => x - y);
    const allLate = drifts[0] > FOLLOW_TOLERANCE_SECONDS;
    const allEarly = drifts[drifts.length - 1] < -FOLLOW_TOLERANCE_SECONDS;
    if (!allLate && !allEarly) return;
    // The median reading: one late frame among them does not set where the clip is. The clip moved
    // after the last reading that found it in place, so at or before the first of these.
    const drift = drifts[Math.floor(drifts.length / 2)];
    const since = this.readings[0].media;
    this.anchor = { ...a, contextTime: a.contextTime + drift };
    this.readings = [];
    this.retime(this.anchor, since);
  }
}
