/**
 * A line retake's lead-in (docs/architecture.md, "Retake lead-in"): the clip rolls from the previous
 * line with its sound while the count-in runs, so the learner enters in context rather than cold.
 * The sound is the actor's (the clip unmuted) or, if the learner asks, their own latest take of that
 * line; either stops before the retaken line's window opens, so none of it is in the take.
 */
import { signal } from '@preact/signals-react';
import { readJson, writeJson } from '../../stores/storage';
import type { SubtitleLine } from '../../lib/movie-detail';

export type LeadInSound = 'actor' | 'take';

const KEY = 'dub.leadInSound';

/** Whose voice the lead-in plays; remembered on this device. */
export const leadInSound = signal<LeadInSound>(
  readJson<LeadInSound>(localStorage, KEY) === 'take' ? 'take' : 'actor',
);

export function setLeadInSound(sound: LeadInSound): void {
  leadInSound.value = sound;
  writeJson(localStorage, KEY, sound);
}

export interface LeadInPlan {
  /** Clip time the retake starts from: just before the previous line. */
  from: number;
  /** Clip time the lead-in's sound stops: after the previous line, before the retaken window. */
  silenceAt: number;
  sound: LeadInSound;
  /** The learner's take of the previous line and the clip time of its first sample (sound 'take'). */
  take: { url: string; at: number } | null;
}

/** Seconds of clip before the previous line's cue. */
const BEFORE_PREVIOUS = 0.2;
/** The sound stops this long after the previous line, or this long before the retaken window. */
const SILENCE_GAP = 0.05;

/**
 * The lead-in of a retake of `line`: null for the film's first line (it keeps the muted run-up).
 * `takeOf` gives the learner's latest take of a line, if any; without one the actor plays.
 */
export function planLeadIn(
  lines: readonly SubtitleLine[],
  line: SubtitleLine,
  marginSeconds: number,
  sound: LeadInSound,
  takeOf: (id: string) => string | null,
): LeadInPlan | null {
  const sorted = [...lines].sort((a, b) => a.startTime_m - b.startTime_m);
  const k = sorted.findIndex((l) => l.id === line.id);
  if (k <= 0) return null;
  const prev = sorted[k - 1];
  const url = sound === 'take' ? takeOf(prev.id) : null;
  const windowOpens = line.startTime_m - marginSeconds;
  return {
    from: Math.max(0, prev.startTime_m - BEFORE_PREVIOUS),
    silenceAt: Math.max(
      prev.startTime_m,
      Math.min(prev.endTime_m + marginSeconds, windowOpens - SILENCE_GAP),
    ),
    sound: url ? 'take' : 'actor',
    take: url ? { url, at: prev.startTime_m - marginSeconds } : null,
  };
}

/** The audio element the take plays through (a seam for the tests). */
export type LeadInAudio = Pick<HTMLAudioElement, 'play' | 'pause' | 'currentTime'>;

/**
 * Plays a lead-in while the clip rolls: `start` as the clip starts (at clip time `t`), `tick` with the
 * clip position, `stop` when the take ends. The clip is muted again at `silenceAt` at the latest.
 */
export class LeadInPlayer {
  private audio: LeadInAudio | null = null;
  private started = false;
  private silenced = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly plan: LeadInPlan,
    private readonly video: Pick<HTMLVideoElement, 'muted'>,
    private readonly makeAudio: (url: string) => LeadInAudio = (url) => new Audio(url),
  ) {}

  start(t: number): void {
    if (this.plan.sound === 'actor') this.video.muted = false;
    else if (this.plan.take) this.audio = this.makeAudio(this.plan.take.url);
    this.tick(t);
  }

  tick(t: number): void {
    if (this.silenced) return;
    if (t >= this.plan.silenceAt) {
      this.silence();
      return;
    }
    // The clip position arrives every PLAY_TICK_MS, and a loaded page can hold ticks back or read a
    // position that then jumps (WebKitGTK under load muted 0.6 s late): a timer re-armed from each
    // position silences the lead-in on time between them, and early rather than late if the clip lags.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.silence(), (this.plan.silenceAt - t) * 1000);
    const take = this.plan.take;
    if (this.audio && take && !this.started && t >= take.at) {
      this.started = true;
      this.audio.currentTime = Math.max(0, t - take.at);
      void this.audio.play().catch((e) => console.error('[dub] cannot play the lead-in take', e));
    }
  }

  stop(): void {
    this.silence();
  }

  private silence(): void {
    clearTimeout(this.timer);
    this.silenced = true;
    this.video.muted = true;
    this.audio?.pause();
  }
}
