/**
 * What "watch my dub" plays, line by line (docs/architecture.md, "Watch my dub"): a line with a take
 * plays the take over the background, placed where the recording pipeline cut it (the subtitle
 * window widened by the take margin, on the clip's clock: src/audio/dsp/windows.ts `planWindows`);
 * a line without one keeps the actor (the original audio) in that window. Pure, so it is unit-tested.
 */
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../../audio/constants';

export interface MixLine {
  id: string;
  /** Subtitle window on the clip timeline (s): startTime_m / endTime_m. */
  startSeconds: number;
  endSeconds: number;
  /** The learner's latest take of the line (a wav URL), or null: the actor keeps the line. */
  takeUrl: string | null;
  /**
   * The take is its melody version (src/audio/scoring/melody.ts): it runs on the clock of the
   * actor's cut line, which starts at the subtitle start with no margin (server/films/import.ts).
   */
  onActorClock?: boolean;
}

export interface ScheduledTake {
  lineId: string;
  url: string;
  /** Clip time (s) of the take's first sample: the window start less the margin. */
  clipStart: number;
}

export interface ClipSpan {
  lineId: string;
  from: number;
  to: number;
}

export interface MixPlan {
  takes: ScheduledTake[];
  /** Windows of lines without a take: the original audio plays there instead of the background. */
  actor: ClipSpan[];
  /** Windows of lines with a take: the original audio is silent there. */
  dubbed: ClipSpan[];
}

export function planMix(lines: readonly MixLine[], marginSeconds = DEFAULT_WINDOW_MARGIN_SECONDS): MixPlan {
  const plan: MixPlan = { takes: [], actor: [], dubbed: [] };
  for (const l of [...lines].sort((a, b) => a.startSeconds - b.startSeconds)) {
    const span = {
      lineId: l.id,
      from: Math.max(0, l.startSeconds - marginSeconds),
      to: l.endSeconds + marginSeconds,
    };
    if (l.takeUrl) {
      // Not clamped at 0: the pipeline's window starts there too (a take of a line at 0.1 s begins
      // before the clip), so the take's speech stays where it was said.
      const clipStart = l.onActorClock ? l.startSeconds : l.startSeconds - marginSeconds;
      plan.takes.push({ lineId: l.id, url: l.takeUrl, clipStart });
      plan.dubbed.push(span);
    } else plan.actor.push(span);
  }
  return plan;
}

/**
 * Gain steps (clip time → gain) that are `inside` within the spans and `outside` elsewhere, with
 * short ramps just outside each span so the whole span has the inside gain. Overlapping spans merge.
 */
export function gainSteps(
  spans: readonly ClipSpan[],
  inside: number,
  outside: number,
  rampSeconds = 0.005,
): { at: number; value: number; ramp: boolean }[] {
  const merged: { from: number; to: number }[] = [];
  for (const s of [...spans].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && s.from <= last.to + 2 * rampSeconds) last.to = Math.max(last.to, s.to);
    else merged.push({ from: s.from, to: s.to });
  }
  const steps: { at: number; value: number; ramp: boolean }[] = [{ at: 0, value: outside, ramp: false }];
  for (const m of merged) {
    const rampFrom = Math.max(0, m.from - rampSeconds);
    steps.push({ at: rampFrom, value: outside, ramp: false });
    steps.push({ at: m.from, value: inside, ramp: true });
    steps.push({ at: m.to, value: inside, ramp: false });
    steps.push({ at: m.to + rampSeconds, value: outside, ramp: true });
  }
  return steps;
}

/**
 * The takes still to be heard when the clip plays from clip time `clip` (a play from there, a seek):
 * every take whose audio ends after `clip`, in order, so the one under the playhead is kept and
 * starts part way in (`startOf`). `durations` maps a line to its take's length (s); a take without
 * one is dropped, as the player drops a take it could not load.
 */
export function takesFrom(
  takes: readonly ScheduledTake[],
  durations: ReadonlyMap<string, number>,
  clip: number,
): ScheduledTake[] {
  return takes.filter((t) => {
    const d = durations.get(t.lineId);
    return d !== undefined && t.clipStart + d > clip;
  });
}

/**
 * When and from where to start a take of `duration` s whose first sample is due at context time
 * `when`, no earlier than `now`: at `when` from its start, or, when that is past (a take under the
 * playhead after a seek), now from `now - when` into it; null once it would be over.
 */
export function startOf(when: number, now: number, duration: number): { at: number; offset: number } | null {
  if (when >= now) return { at: when, offset: 0 };
  if (now - when < duration) return { at: now, offset: now - when };
  return null;
}
