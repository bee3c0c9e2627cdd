/**
 * What the pitch guide draws (docs/recording.md, "Pitch guide"), kept out of React and signals so
 * a new point costs no render: the learner's live pitch as the worker sends it (10 Hz, in Hz),
 * stamped with the clip time it arrived at, in a fixed ring. The actor's contour comes with the film
 * (subtitle `actorPitch`, computed by the server, semitones re the actor's median on the line).
 */
import { LIVE_STATS_SECONDS } from '../../../audio/constants';
import { semitoneContour } from '../../../audio/scoring/contour';
import type { SubtitleLine } from '../../lib/movie-detail';

export class PitchRing {
  readonly times: Float64Array;
  readonly hz: Float32Array;
  private next = 0;
  private filled = 0;
  /** Bumped on every push, so a drawer can tell nothing changed. */
  version = 0;

  constructor(readonly capacity = 600) {
    this.times = new Float64Array(capacity);
    this.hz = new Float32Array(capacity);
  }

  /** A point at clip time `t`; unvoiced points are kept as NaN so the line breaks there. */
  push(t: number, hz: number | null): void {
    this.times[this.next] = t;
    this.hz[this.next] = hz !== null && hz > 0 ? hz : Number.NaN;
    if (hz !== null && hz > 0) this.latestVoiced = t;
    this.latest = t;
    this.next = (this.next + 1) % this.capacity;
    this.filled = Math.min(this.capacity, this.filled + 1);
    this.version++;
  }

  /** Clip time of the newest voiced point, or null when there is none. */
  latestVoiced: number | null = null;
  /** Clip time of the newest point, voiced or not: where the take's recording stopped. */
  latest: number | null = null;

  /** What guideLine holds after a take: its last voiced point and where its recording stopped. */
  held(): { voicedAt: number; endedAt: number } | null {
    return this.latestVoiced === null || this.latest === null
      ? null
      : { voicedAt: this.latestVoiced, endedAt: this.latest };
  }

  clear(): void {
    this.latestVoiced = null;
    this.latest = null;
    this.filled = 0;
    this.next = 0;
    this.version++;
  }

  /** Calls `visit` for the points with from ≤ t ≤ to, oldest first. */
  forEachBetween(from: number, to: number, visit: (t: number, hz: number) => void): void {
    const start = (this.next - this.filled + this.capacity) % this.capacity;
    for (let k = 0; k < this.filled; k++) {
      const i = (start + k) % this.capacity;
      const t = this.times[i];
      if (t >= from && t <= to) visit(t, this.hz[i]);
    }
  }
}

/** Seconds shown before and after the line's cue. */
export const GUIDE_PAD_SECONDS = 0.5;

/** After a take the clip is paused this long past the end of its recording at most (a late pause). */
export const GUIDE_HOLD_SECONDS = 1;

/**
 * The line the guide shows at clip time `t`: the one being said, else the next one, else the last.
 * With the clip paused after a take that has just ended (`held`: its last voiced point, and where its
 * recording stopped), the line of that voiced point: a take stops a little past its window, which may
 * already be past the line's pad or inside the next line's, and more than a second after the learner
 * fell silent when they finished early; the learner wants to see what they just said.
 */
export function guideLine(
  lines: readonly SubtitleLine[],
  t: number,
  held: { voicedAt: number; endedAt: number } | null = null,
): SubtitleLine | null {
  if (held && t >= held.voicedAt && t - held.endedAt <= GUIDE_HOLD_SECONDS)
    return guideLine(lines, held.voicedAt);
  let next: SubtitleLine | null = null;
  for (const l of lines) {
    if (t >= l.startTime_m - GUIDE_PAD_SECONDS && t <= l.endTime_m + GUIDE_PAD_SECONDS) return l;
    if (l.startTime_m > t && (!next || l.startTime_m < next.startTime_m)) next = l;
  }
  return next ?? lines[lines.length - 1] ?? null;
}

/**
 * The learner's points of `line` up to clip time `to`, read as the actor's contour is
 * (server/films/actor-pitch.ts): semitones re the median of their own voiced points on the line, octave
 * slips of the live tracker repaired (semitoneContour), NaN unvoiced. So both voices share one register
 * per line, whether the take is the whole scene or this line alone: a reference over the whole take
 * put a line said higher or lower than the rest of the scene at the guide's edge.
 */
export function learnerOnLine(
  ring: PitchRing,
  line: Pick<SubtitleLine, 'startTime_m' | 'endTime_m'>,
  to: number,
): { times: number[]; semitones: number[] } {
  const times: number[] = [];
  const hz: number[] = [];
  ring.forEachBetween(
    line.startTime_m - GUIDE_PAD_SECONDS,
    Math.min(to, line.endTime_m + GUIDE_PAD_SECONDS),
    (t, f) => {
      times.push(t);
      hz.push(f);
    },
  );
  return { times, semitones: Array.from(semitoneContour(hz, 0, hz.length, LIVE_STATS_SECONDS)) };
}
