/**
 * The clip's clock as heard on an AudioContext: (context time heard when the frame is shown, media
 * time) pairs from every frame (requestVideoFrameCallback's mediaTime, features/watch-dub/dub-player.ts).
 * The clip plays at its playbackRate (1 unless told otherwise), so the clock is that rate and one
 * offset: where the newest frames put the clip. The player moves a waiting take with every frame, so a
 * take is finally placed from the frames just before it is heard, a frame and START_AHEAD_SECONDS
 * ahead at most. Pure, so it is unit-tested.
 *
 * Why no fitted rate (docs/architecture.md, "Watch my dub"): on a loaded machine headless Chromium
 * presents a muted clip a few per cent slow and then skips ahead to catch up, so a rate fitted over
 * the frames reads 0.99–1.06 one play and 0.94 the next, and extrapolated over the look-ahead it put
 * takes up to 25 ms off the picture. At rate 1 over the ~0.1 s from the newest frames to the take, a
 * picture 6 % slow costs 6 ms.
 */

import { median } from '../../../audio/scoring/contour';

interface Point {
  c: number;
  m: number;
}

export class VideoClock {
  private readonly points: Point[] = [];
  private a = 0;

  /**
   * `rate`: the clip's playbackRate. The offset is the mean of the newest two frames' (the median of
   * `recent`): a frame shown 50 ms late moves it 25 ms for one frame, under the 60 ms at which the
   * player restarts the bed, and it lags the picture by half a frame, not more (a median of three lags
   * a frame: at 0.94 that is 4 ms more at the take, tests/unit/watch-dub/video-clock.test.ts).
   */
  constructor(
    readonly rate = 1,
    private readonly recent = 2,
  ) {
    if (!(rate > 0)) throw new RangeError(`A clip's playback rate is positive, not ${rate}.`);
  }

  get ready(): boolean {
    return this.points.length > 0;
  }

  /** A frame with media time `m` was heard-aligned at context time `c`. */
  add(c: number, m: number): void {
    const last = this.points[this.points.length - 1];
    // A seek or a restart: the old frames describe another run of the clock.
    if (last && (m < last.m || m - last.m > 1)) this.reset();
    this.points.push({ c, m });
    if (this.points.length > this.recent) this.points.shift();
    this.a = median(this.points.map((p) => p.m - this.rate * p.c));
  }

  /** Forgets every frame: after a seek the old frames describe another run of the clock, however near. */
  reset(): void {
    this.points.length = 0;
    this.a = 0;
  }

  /** Clip time heard at context time `c`. */
  clipAt(c: number): number {
    return this.a + this.rate * c;
  }

  /** Context time at which clip time `m` is heard. */
  contextAt(m: number): number {
    return (m - this.a) / this.rate;
  }
}
