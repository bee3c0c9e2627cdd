/**
 * The clip's clock as heard on an AudioContext: (context time heard when the frame is shown, media
 * time) pairs from every frame, read as a line. A video need not keep real time against the audio
 * clock, so "watch my dub" schedules each take from this line just before it is due rather than
 * from one anchor at the start (features/watch-dub/dub-player.ts). Pure, so it is unit-tested.
 *
 * What the picture does on a loaded machine (docs/architecture.md, "Watch my dub"): headless
 * Chromium presents a muted 15 fps clip a few per cent slow (every fourth frame held one vsync
 * longer) for a second or two, then skips ~100 ms ahead to catch up; under heavier load it runs
 * ~15 % slow for seconds, with frames ±50 ms off their slots. So the clip has no one rate: between
 * skips it has the slow one, and across them about 1. A take is heard against the picture between
 * skips, so the rate is fitted over the frames since the last skip (a "run"), never across one: a
 * least-squares line over 2 s that straddles a skip reads the catch-up as speed (0.99–1.06 where the
 * picture ran at 0.94) and, extrapolated the ~0.3 s from the frames to the take, put takes 20 ms early.
 */

import { median } from '../../../audio/scoring/contour';

/** The clock measured over at most this long (s): the rate may change as the machine's load does. */
const SPAN_SECONDS = 6;
/**
 * A run gives the rate when it spans MIN_RUN_SECONDS, holds MIN_RUN_FRAMES and its slope's standard
 * error is under MAX_RATE_ERROR: a steady picture (vsync-quantised, ±8 ms) passes after a second, one
 * with frames ±40 ms off their slots only after 2–3 s (0.01 × 0.3 s of look-ahead is 3 ms).
 */
const MIN_RUN_SECONDS = 1;
const MIN_RUN_FRAMES = 8;
const MAX_RATE_ERROR = 0.01;
/**
 * A skip: the median offset of the last JUMP_FRAMES frames is this far (s) from that of the
 * JUMP_FRAMES before. One frame shown late moves neither median; a vsync (17 ms) or two of
 * presentation jitter stays well under it; the catch-up skips measured are 83–117 ms.
 */
const JUMP_SECONDS = 0.05;
const JUMP_FRAMES = 3;
/** Before any run gave a rate, the whole window gives it once it spans this long (s); until then 1. */
const WHOLE_SECONDS = 2;

interface Point {
  c: number;
  m: number;
}

/**
 * Least-squares slope of m on c and its standard error (from the residuals), or null when the
 * points do not spread in c.
 */
function lineFit(points: readonly Point[]): { slope: number; error: number } | null {
  const n = points.length;
  let sc = 0;
  let sm = 0;
  for (const p of points) {
    sc += p.c;
    sm += p.m;
  }
  const mc = sc / n;
  const mm = sm / n;
  let cov = 0;
  let varc = 0;
  for (const p of points) {
    cov += (p.c - mc) * (p.m - mm);
    varc += (p.c - mc) ** 2;
  }
  if (!(varc > 0)) return null;
  const b = cov / varc;
  let ss = 0;
  for (const p of points) ss += (p.m - mm - b * (p.c - mc)) ** 2;
  const error = n > 2 ? Math.sqrt(ss / (n - 2) / varc) : Number.POSITIVE_INFINITY;
  // A stalled or racing fit (a frame burst after a stall) is not a clock: keep it plausible.
  return { slope: Math.min(1.5, Math.max(0.5, b)), error };
}

export class VideoClock {
  private readonly points: Point[] = [];
  /** Index in `points` of the first frame of the current run (the frames since the last skip). */
  private runStart = 0;
  /** The rate the last run long enough gave, and the context time it was measured at. */
  private measured: { rate: number; at: number } | null = null;
  private a = 0;
  private r = 1;

  /** The offset is the median over the last `recent` frames, so one late frame does not move it. */
  constructor(private readonly recent = 4) {}

  get ready(): boolean {
    return this.points.length > 0;
  }

  /** Clip seconds per context second (1 when the clip keeps time). */
  get rate(): number {
    return this.r;
  }

  /** A frame with media time `m` was heard-aligned at context time `c`. */
  add(c: number, m: number): void {
    const last = this.points[this.points.length - 1];
    // A seek or a restart: the old frames describe another run of the clock.
    if (last && (m < last.m || m - last.m > 1)) this.reset();
    this.points.push({ c, m });
    while (c - this.points[0].c > SPAN_SECONDS) {
      this.points.shift();
      this.runStart = Math.max(0, this.runStart - 1);
    }
    this.findSkip();
    this.r = this.fitRate(c);
    this.a = median(this.points.slice(-this.recent).map((p) => p.m - this.r * p.c));
  }

  /** Forgets every frame: after a seek the old frames describe another run of the clock, however near. */
  reset(): void {
    this.points.length = 0;
    this.runStart = 0;
    this.measured = null;
    this.a = 0;
    this.r = 1;
  }

  /** Clip time heard at context time `c`. */
  clipAt(c: number): number {
    return this.a + this.r * c;
  }

  /** Context time at which clip time `m` is heard. */
  contextAt(m: number): number {
    return (m - this.a) / this.r;
  }

  /** Starts a new run at the newest frames when they sit off the run's line by a skip. */
  private findSkip(): void {
    const run = this.points.slice(this.runStart);
    if (run.length < 2 * JUMP_FRAMES) return;
    const offset = (p: Point) => p.m - this.r * p.c;
    const before = median(run.slice(-2 * JUMP_FRAMES, -JUMP_FRAMES).map(offset));
    const after = median(run.slice(-JUMP_FRAMES).map(offset));
    if (Math.abs(after - before) <= JUMP_SECONDS) return;
    // The skip is where the frames leave the old line: the first of the newest nearer the new one.
    let i = this.points.length - JUMP_FRAMES;
    while (Math.abs(offset(this.points[i]) - after) > Math.abs(offset(this.points[i]) - before)) i++;
    this.runStart = i;
  }

  /**
   * The current run's slope once it is long and steady enough; else the last run's that was (the picture's
   * pace outlasts a skip); else, before any run was, the whole window's once it spans WHOLE_SECONDS
   * (a clip too irregular for runs, on a heavily loaded machine); else 1, the playbackRate.
   */
  private fitRate(now: number): number {
    const run = this.points.slice(this.runStart);
    if (run.length >= MIN_RUN_FRAMES && run[run.length - 1].c - run[0].c >= MIN_RUN_SECONDS) {
      const f = lineFit(run);
      if (f && f.error <= MAX_RATE_ERROR) {
        this.measured = { rate: f.slope, at: now };
        return f.slope;
      }
    }
    if (this.measured && now - this.measured.at <= SPAN_SECONDS) return this.measured.rate;
    const all = this.points;
    if (all.length >= MIN_RUN_FRAMES && all[all.length - 1].c - all[0].c >= WHOLE_SECONDS) {
      return lineFit(all)?.slope ?? 1;
    }
    return 1;
  }
}
