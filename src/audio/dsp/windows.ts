/**
 * Streaming window slicer: cuts a continuous sample stream into one buffer per subtitle window.
 *
 * Windows are given in absolute stream sample indices (margins already applied, see `planWindows`).
 * A window's buffer is allocated when the stream reaches its start and handed out (and forgotten) the
 * moment the stream passes its end, so a long take holds only the windows that are open right now.
 * Windows may overlap (margins of neighbouring lines); each gets its own copy of the shared samples.
 */
import { writeRing } from './ring';

export interface WindowSpec {
  id: string;
  /** First sample (inclusive), absolute stream index. */
  start: number;
  /** One past the last sample (exclusive). */
  end: number;
  /**
   * Where the line itself ends (its trailing margin excluded). From here the window may close early,
   * when the slicer's `endsEarly` hears the speaker has stopped.
   */
  lineEnd?: number;
}

export interface ClosedWindow extends WindowSpec {
  samples: Float32Array;
  /** False when the stream ended before the window did (the samples stop where the stream stopped). */
  complete: boolean;
}

export interface SubtitleWindowTimes {
  id: string;
  /** Seconds on the clip timeline (startTime_m / endTime_m). */
  startSeconds: number;
  endSeconds: number;
}

export class WindowError extends Error {
  readonly code = 'BAD_WINDOW';
  constructor(message: string) {
    super(message);
    this.name = 'WindowError';
  }
}

/**
 * Subtitle times (clip seconds) → stream sample windows, widened by `marginSeconds` on both sides and
 * clamped at `minIndex` (the first sample the take captured).
 */
export function planWindows(
  subtitles: readonly SubtitleWindowTimes[],
  mediaToSampleIndex: (mediaSeconds: number) => number,
  options: { marginSeconds: number; minIndex?: number },
): WindowSpec[] {
  const minIndex = options.minIndex ?? 0;
  return subtitles
    .map((s) => {
      if (!(s.endSeconds > s.startSeconds)) {
        throw new WindowError(
          `Subtitle ${s.id} ends (${s.endSeconds}s) before it starts (${s.startSeconds}s).`,
        );
      }
      const start = Math.max(
        minIndex,
        Math.round(mediaToSampleIndex(s.startSeconds - options.marginSeconds)),
      );
      const end = Math.round(mediaToSampleIndex(s.endSeconds + options.marginSeconds));
      const lineEnd = Math.round(mediaToSampleIndex(s.endSeconds));
      return { id: s.id, start, end, lineEnd };
    })
    .filter((w) => w.end > w.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

export class WindowSlicer {
  private pending: WindowSpec[];
  private readonly open: { spec: WindowSpec; samples: Float32Array }[] = [];
  private next = 0;
  private pos: number;
  /** Ring of the last `lookback` samples, so a window planned a little late can still start in the past. */
  private readonly ring: Float32Array;
  private ringFilled = 0;
  /** Windows whose beginning was older than the ring when they were added. */
  private readonly lost = new Set<string>();

  constructor(
    windows: readonly WindowSpec[],
    private readonly onClose: (window: ClosedWindow) => void,
    startIndex = 0,
    lookback = 0,
    /**
     * Asked, once the stream is past a window's `lineEnd`, whether its first `filled` samples end in
     * silence: if so the window closes there, without waiting for the rest of its trailing margin.
     */
    private readonly endsEarly?: (samples: Float32Array, filled: number) => boolean,
  ) {
    this.pending = [];
    this.pos = startIndex;
    this.ring = new Float32Array(lookback);
    this.add(windows);
  }

  /**
   * Adds windows while the stream runs (the clip's clock anchor is only known once playback starts).
   * A window that starts before `position` is back-filled from the look-back ring; anything older
   * than the ring is lost and the window is marked incomplete.
   */
  add(windows: readonly WindowSpec[]): void {
    this.validate(windows);
    const late = windows.filter((w) => w.start < this.pos);
    const ahead = windows.filter((w) => w.start >= this.pos);
    this.pending = [...this.pending.slice(this.next), ...ahead].sort(
      (a, b) => a.start - b.start || a.end - b.end,
    );
    this.next = 0;
    const oldest = this.pos - this.ringFilled;
    for (const spec of late) {
      const samples = new Float32Array(spec.end - spec.start);
      const from = Math.max(spec.start, oldest);
      for (let i = from; i < Math.min(spec.end, this.pos); i++) {
        samples[i - spec.start] = this.ring[i % this.ring.length];
      }
      if (from > spec.start) this.lost.add(spec.id);
      this.open.push({ spec, samples });
    }
    this.closeFinished(false);
  }

  /**
   * Gives windows not yet closed new ranges (the take's clock re-anchored mid-take: the clip stood
   * still, or moved against the capture clock, from stream index `from` on). A window still ahead is
   * replaced. An open window that opened before `from` keeps its start and what it holds, and closes
   * at its new end if that is later: a line the clip stood still in holds the learner's words from
   * both sides of the wait. One that opened after is cut again from its new start, from the look-back
   * ring. Windows already handed out, and ids this slicer does not hold, are left alone.
   */
  move(windows: readonly WindowSpec[], from = Number.POSITIVE_INFINITY): void {
    this.validate(windows);
    const moved = new Map(windows.map((w) => [w.id, w] as const));
    const ahead = this.pending.slice(this.next);
    const open = this.open.splice(0);
    const recut = open.filter((o) => o.spec.start >= from && moved.has(o.spec.id));
    for (const o of recut) this.lost.delete(o.spec.id);
    this.pending = ahead.filter((w) => !moved.has(w.id));
    this.next = 0;
    this.add([...ahead, ...recut.map((o) => o.spec)].flatMap((w) => moved.get(w.id) ?? []));
    for (const was of open) {
      if (recut.includes(was)) continue; // opened again by `add` above
      const to = moved.get(was.spec.id);
      if (!to) {
        this.open.push(was);
        continue;
      }
      // An open window only grows: one cut short would lose words already on their way, and a longer
      // one still closes at the learner's silence.
      const { spec, samples } = was;
      if (to.end <= spec.end) {
        this.open.push(was);
        continue;
      }
      const resized = new Float32Array(to.end - spec.start);
      resized.set(samples.subarray(0, this.pos - spec.start));
      const lineEnd =
        to.lineEnd === undefined || spec.lineEnd === undefined
          ? spec.lineEnd
          : Math.max(to.lineEnd, spec.lineEnd);
      this.open.push({ spec: { ...spec, end: to.end, lineEnd }, samples: resized });
    }
    this.closeFinished(false);
  }

  private validate(windows: readonly WindowSpec[]): void {
    for (const w of windows) {
      if (!Number.isInteger(w.start) || !Number.isInteger(w.end) || w.end <= w.start) {
        throw new WindowError(`Window ${w.id} has a bad range [${w.start}, ${w.end}).`);
      }
    }
  }

  /** Absolute index of the next sample `push` expects. */
  get position(): number {
    return this.pos;
  }
  /** Windows holding memory right now. */
  get openCount(): number {
    return this.open.length;
  }
  /** Windows not yet closed (open or still ahead). */
  get remaining(): number {
    return this.open.length + this.pending.length - this.next;
  }

  /** Appends `length` samples of `chunk` (default all) that follow the previous push without a gap. */
  push(chunk: Float32Array, length = chunk.length): void {
    const chunkStart = this.pos;
    const chunkEnd = chunkStart + length;
    // Open every window that starts before this chunk ends. Windows that started before the stream
    // reached them (start < chunkStart, e.g. added late) are a programming error.
    while (this.next < this.pending.length && this.pending[this.next].start < chunkEnd) {
      const spec = this.pending[this.next++];
      if (spec.end <= chunkStart) {
        // Entirely in the past (before the first sample): nothing was captured for it.
        this.onClose({ ...spec, samples: new Float32Array(0), complete: false });
        continue;
      }
      this.open.push({ spec, samples: new Float32Array(spec.end - spec.start) });
    }
    for (let i = 0; i < this.open.length; i++) {
      const { spec, samples } = this.open[i];
      const from = Math.max(spec.start, chunkStart);
      const to = Math.min(spec.end, chunkEnd);
      if (to > from) samples.set(chunk.subarray(from - chunkStart, to - chunkStart), from - spec.start);
    }
    if (this.ring.length > 0) {
      // Sample i of the stream lives at ring index i % ring.length.
      writeRing(this.ring, chunkStart % this.ring.length, chunk, length);
      this.ringFilled = Math.min(this.ring.length, this.ringFilled + length);
    }
    this.pos = chunkEnd;
    this.closeFinished(false);
  }

  /** Ends the stream: windows still open are handed out truncated, windows never reached are dropped. */
  finish(): WindowSpec[] {
    this.closeFinished(true);
    const skipped = this.pending.slice(this.next);
    this.next = this.pending.length;
    return skipped;
  }

  private closeFinished(all: boolean): void {
    for (let i = 0; i < this.open.length; ) {
      const { spec, samples } = this.open[i];
      const passed = spec.end <= this.pos;
      const early = !passed && this.stoppedEarly(spec, samples);
      if (all || passed || early) {
        this.open.splice(i, 1);
        const captured = Math.max(0, Math.min(spec.end, this.pos) - spec.start);
        // A window that closed early at silence holds everything the line needs: it is complete.
        const complete = (passed || early) && !this.lost.delete(spec.id);
        this.onClose({
          ...spec,
          samples:
            captured === samples.length ? samples : samples.slice(0, Math.min(captured, samples.length)),
          complete,
        });
      } else i++;
    }
  }

  private stoppedEarly(spec: WindowSpec, samples: Float32Array): boolean {
    if (!this.endsEarly || spec.lineEnd === undefined || this.pos < spec.lineEnd) return false;
    return this.endsEarly(samples, this.pos - spec.start);
  }
}
