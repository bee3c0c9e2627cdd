/**
 * Plays the clip with the learner's takes in place of the actor (docs/architecture.md, "Watch my
 * dub"): the clip itself plays muted, and its sound is rebuilt in Web Audio — the film's background
 * track, the original audio inside the windows of lines not dubbed, and each take started at the
 * context time its window's first sample is heard, read from the video's clock
 * (requestVideoFrameCallback's display time → getOutputTimestamp, as the recorder's anchor does in
 * lib/video-anchor.ts). No re-encode: the browser mixes what it already has.
 */
import { signal } from '@preact/signals-react';
import { presentedContextTime } from '../../../audio/dsp/clock';
import { seek } from '../../lib/video-anchor';
import { outputTimestamp } from '../../../audio/capture/context-clock';
import { gainSteps, type MixPlan, startOf, takesFrom } from './mix-plan';
import { VideoClock } from './video-clock';

export type PlayerState = 'idle' | 'loading' | 'ready' | 'playing' | 'failed';

/**
 * Why a track could not be loaded, so the learner is told the real cause rather than "the network":
 * - `blocked`: the page's Content-Security-Policy refused the address (a `securitypolicyviolation`
 *   event named it; server/plugins/security-headers.ts);
 * - `local`: a recording kept on this page (a `blob:` URL) could not be read;
 * - `http`: the server answered an error status (`status`);
 * - `network`: the request did not complete;
 * - `decode`: the bytes arrived but are not audio the browser can decode.
 */
export type LoadFailureKind = 'blocked' | 'local' | 'http' | 'network' | 'decode';

export interface LoadFailure {
  kind: LoadFailureKind;
  /** Which track: the clip, its background, or the take of a line (`lineId`). */
  track: 'clip' | 'background' | 'take';
  lineId?: string;
  status?: number;
  url: string;
}

export class TrackLoadError extends Error {
  constructor(readonly failure: LoadFailure) {
    super(
      `${failure.track}${failure.lineId ? ` ${failure.lineId}` : ''}: ${failure.kind}${failure.status ? ` ${failure.status}` : ''} (${failure.url.slice(0, 80)})`,
    );
  }
}

/** Collects the addresses the page's policy refuses until `stop()`. */
function watchPolicyRefusals(): { refused: Set<string>; stop: () => void } {
  const refused = new Set<string>();
  if (typeof document === 'undefined') return { refused, stop: () => undefined };
  const on = (e: SecurityPolicyViolationEvent) => refused.add(e.blockedURI);
  document.addEventListener('securitypolicyviolation', on);
  return { refused, stop: () => document.removeEventListener('securitypolicyviolation', on) };
}

/** Whether a refused address names `url` (Chromium reports a `blob:` refusal as the bare scheme). */
function refusedMatches(refused: Set<string>, url: string): boolean {
  for (const r of refused) {
    if (r === url || url.startsWith(r) || (r === 'blob' && url.startsWith('blob:'))) return true;
  }
  return false;
}

/**
 * Fetches and decodes one track, turning every failure into a `TrackLoadError` naming its cause. A
 * policy refusal is reported as an event after the fetch rejects, so a rejected fetch waits one task
 * for it before calling the failure the network's.
 */
export async function loadTrack(
  ctx: BaseAudioContext,
  url: string,
  track: LoadFailure['track'],
  lineId?: string,
  fetcher: typeof fetch = fetch,
): Promise<AudioBuffer> {
  const fail = (kind: LoadFailureKind, status?: number) =>
    new TrackLoadError({ kind, track, url, ...(lineId ? { lineId } : {}), ...(status ? { status } : {}) });
  const policy = watchPolicyRefusals();
  let res: Response;
  try {
    res = await fetcher(url, { credentials: 'include' });
  } catch {
    await new Promise((r) => setTimeout(r, 0));
    policy.stop();
    if (refusedMatches(policy.refused, url)) throw fail('blocked');
    throw fail(url.startsWith('blob:') ? 'local' : 'network');
  }
  policy.stop();
  if (!res.ok) throw fail('http', res.status);
  let bytes: ArrayBuffer;
  try {
    bytes = await res.arrayBuffer();
  } catch {
    throw fail(url.startsWith('blob:') ? 'local' : 'network');
  }
  try {
    return await ctx.decodeAudioData(bytes);
  } catch {
    throw fail('decode');
  }
}

/** What was scheduled for one play: the test and the debug view read it (data-schedule). */
export interface PlaySchedule {
  /**
   * Each take as scheduled: the clip time of its first sample, the context time it is heard, and how
   * far into it the start was (0 unless it was under the playhead after a seek).
   */
  takes: { lineId: string; clipStart: number; when: number; offset: number }[];
  actorLines: string[];
  /** Times the bed was restarted because the clip drifted off it. */
  bedRestarts: number;
}

export interface PlayerMedia {
  /** The clip (its audio is the original, decoded for the windows the actor keeps). */
  video: string;
  /** The film's voice-free background track; null: the original plays, silenced where takes are. */
  background: string | null;
  plan: MixPlan;
}

type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void,
  ) => number;
};

/** Ramps at the edges of a window, outside it (features/watch-dub/mix-plan.ts gainSteps). */
const RAMP_SECONDS = 0.005;
/** Sources are never started in the past: a little ahead of the render clock. */
const START_AHEAD_SECONDS = 0.02;
/**
 * A take is scheduled this long before its window, from the clock the latest frames show, and moved
 * with every frame after (RESCHEDULE_SECONDS). Long, so a main-thread stall (no frame callbacks for
 * half a second on a loaded machine) does not leave a take unscheduled until its window has opened.
 */
const LOOKAHEAD_SECONDS = 1;
/** The bed is restarted when the clip is this far off it (a dropped-frame stall, a slow clip). */
const BED_DRIFT_SECONDS = 0.06;
/** A waiting take is moved when the clock now puts its window this far from where it was scheduled. */
const RESCHEDULE_SECONDS = 0.004;

/** One play's state: what is scheduled, what waits, where the bed stands (DubPlayer.play). */
interface PlayRun {
  ctx: AudioContext;
  media: PlayerMedia;
  clock: VideoClock;
  /** Takes not yet scheduled, in film order. */
  pending: ReturnType<typeof takesFrom>;
  scheduled: PlaySchedule['takes'];
  /** Takes scheduled but not yet sounding. */
  waiting: { entry: PlaySchedule['takes'][number]; buffer: AudioBuffer; source: AudioBufferSourceNode }[];
  bed: { when: number; clip: number } | null;
  /** Times the bed was restarted because the clip drifted off it. */
  bedRestarts: number;
}

export class DubPlayer {
  readonly state = signal<PlayerState>('idle');
  /** Why the last load failed (the player words it: watch-dub.tsx). */
  readonly error = signal<LoadFailure | null>(null);
  readonly schedule = signal<PlaySchedule | null>(null);
  private ctx: AudioContext | null = null;
  private original: AudioBuffer | null = null;
  private background: AudioBuffer | null = null;
  private readonly takes = new Map<string, AudioBuffer>();
  private sources: AudioBufferSourceNode[] = [];
  private bed: AudioBufferSourceNode[] = [];
  private takeOut: GainNode | null = null;
  private media: PlayerMedia | null = null;
  private run = 0;
  /** While playing: drops what is scheduled and plans afresh from a clip time (seekTo). */
  private reposition: ((clip: number) => void) | null = null;

  /** Fetches and decodes every track; call from a user gesture (it creates the AudioContext). */
  async load(media: PlayerMedia): Promise<void> {
    this.media = media;
    this.state.value = 'loading';
    this.error.value = null;
    try {
      const ctx = this.context();
      const [original, background, ...takes] = await Promise.all([
        loadTrack(ctx, media.video, 'clip'),
        media.background ? loadTrack(ctx, media.background, 'background') : Promise.resolve(null),
        ...media.plan.takes.map((t) => loadTrack(ctx, t.url, 'take', t.lineId)),
      ]);
      this.original = original;
      this.background = background;
      this.takes.clear();
      media.plan.takes.forEach((t, i) => {
        this.takes.set(t.lineId, takes[i]);
      });
      this.state.value = 'ready';
    } catch (e) {
      console.error('[watch-dub] cannot load', e);
      this.error.value =
        e instanceof TrackLoadError ? e.failure : { kind: 'network', track: 'clip', url: media.video };
      this.state.value = 'failed';
    }
  }

  /**
   * Plays the clip with the dub from clip time `from` (the start unless told). The bed (background
   * and the original in the actor's windows) starts with the clip; each take is scheduled
   * LOOKAHEAD_SECONDS before its window from the clip's clock as the latest frames show it, and the
   * bed is restarted where it drifts off it. A take under `from` starts part way in.
   */
  async play(video: HTMLVideoElement, from = 0): Promise<void> {
    const media = this.media;
    if (!media || !this.original || this.state.peek() === 'loading') return;
    const ctx = this.context();
    this.stop(video);
    const run = ++this.run;
    await ctx.resume();
    await untilOutputRunning(ctx);
    video.muted = true;
    video.playbackRate = 1;
    await seek(video, from);
    const durations = new Map([...this.takes].map(([id, b]) => [id, b.duration]));
    const play: PlayRun = {
      ctx,
      media,
      clock: new VideoClock(video.playbackRate),
      pending: takesFrom(media.plan.takes, durations, from),
      scheduled: [],
      waiting: [],
      bed: null,
      bedRestarts: 0,
    };
    const onFrame = (meta: { expectedDisplayTime: number; mediaTime: number }) => {
      // A frame shown while the clip seeks belongs to neither position.
      if (run !== this.run || video.seeking) return;
      play.clock.add(presentedContextTime(outputTimestamp(ctx), meta.expectedDisplayTime), meta.mediaTime);
      const now = ctx.currentTime + START_AHEAD_SECONDS;
      const clipNow = play.clock.clipAt(now);
      this.followBed(play, now, clipNow);
      const moved = this.moveWaitingTakes(play, now);
      const added = this.scheduleDueTakes(play, now, clipNow);
      for (let i = play.waiting.length - 1; i >= 0; i--)
        if (play.waiting[i].entry.when <= now) play.waiting.splice(i, 1);
      if (moved || added) this.publish(play);
    };
    // A seek: every take and the bed are dropped, and the takes still ahead (one under the playhead
    // too) are scheduled again from the clock the frames after it show.
    this.reposition = (clip) => {
      this.stopSources(this.sources);
      this.stopSources(this.bed);
      this.sources = [];
      this.bed = [];
      play.bed = null;
      play.waiting.length = 0;
      play.pending = takesFrom(media.plan.takes, durations, clip);
      play.clock.reset();
    };
    await video.play();
    this.state.value = 'playing';
    this.publish(play);
    watchFrames(video, onFrame, () => run !== this.run);
    const end = () => {
      if (run === this.run) this.stop(video);
    };
    video.addEventListener('ended', end, { once: true });
    video.addEventListener('pause', end, { once: true });
  }

  private publish(play: PlayRun): void {
    this.schedule.value = {
      takes: [...play.scheduled],
      actorLines: play.media.plan.actor.map((a) => a.lineId),
      bedRestarts: play.bedRestarts,
    };
  }

  /** Starts the bed at the clip's position, again whenever the clip is BED_DRIFT_SECONDS off it. */
  private followBed(play: PlayRun, now: number, clipNow: number): void {
    const bed = play.bed;
    if (bed && !(Math.abs(bed.clip + (now - bed.when) - clipNow) > BED_DRIFT_SECONDS)) return;
    if (bed) play.bedRestarts++;
    this.stopSources(this.bed);
    play.bed = { when: now, clip: Math.max(0, clipNow) };
    this.bed = this.startBed(play.ctx, play.media.plan, play.bed.when, play.bed.clip);
  }

  /**
   * Moves each take not yet sounding to where the clock now puts its window: the clip may stall or
   * jump after it was scheduled. True when one moved.
   */
  private moveWaitingTakes(play: PlayRun, now: number): boolean {
    let moved = false;
    for (const t of play.waiting) {
      const when = play.clock.contextAt(t.entry.clipStart);
      if (t.entry.when <= now || Math.abs(when - t.entry.when) < RESCHEDULE_SECONDS) continue;
      this.stopSources([t.source]);
      const source = this.startAt(play.ctx, t.buffer, Math.max(when, now), now, this.takeGain(play.ctx));
      if (source) {
        t.source = source;
        t.entry.when = Math.max(when, now);
        moved = true;
      }
    }
    return moved;
  }

  /** Schedules the takes whose windows open within LOOKAHEAD_SECONDS. True when one was. */
  private scheduleDueTakes(play: PlayRun, now: number, clipNow: number): boolean {
    let added = false;
    while (play.pending.length > 0 && play.pending[0].clipStart - clipNow < LOOKAHEAD_SECONDS) {
      const take = play.pending.shift() as (typeof play.pending)[number];
      const buffer = this.takes.get(take.lineId);
      if (!buffer) continue;
      const when = play.clock.contextAt(take.clipStart);
      const source = this.startAt(play.ctx, buffer, when, now, this.takeGain(play.ctx));
      if (!source) continue;
      const entry = { lineId: take.lineId, clipStart: take.clipStart, when, offset: Math.max(0, now - when) };
      play.scheduled.push(entry);
      play.waiting.push({ entry, buffer, source });
      added = true;
    }
    return added;
  }

  /**
   * Moves the clip to `seconds` (the seek bar). While it plays the dub follows: what was scheduled is
   * dropped before the clip moves, and the frames after the seek schedule the takes from there.
   */
  async seekTo(video: HTMLVideoElement, seconds: number): Promise<void> {
    const end = Number.isFinite(video.duration) ? video.duration : seconds;
    const to = Math.min(Math.max(0, seconds), end);
    if (this.state.peek() === 'playing') this.reposition?.(to);
    await seek(video, to);
  }

  stop(video?: HTMLVideoElement): void {
    this.run++;
    this.reposition = null;
    this.stopSources(this.bed);
    this.stopSources(this.sources);
    this.bed = [];
    this.sources = [];
    this.takeOut?.disconnect();
    this.takeOut = null;
    if (video && !video.paused) video.pause();
    if (this.state.peek() === 'playing') this.state.value = 'ready';
  }

  private stopSources(sources: AudioScheduledSourceNode[]): void {
    for (const s of sources) {
      try {
        s.stop();
      } catch {
        // never started
      }
      s.disconnect();
    }
  }

  /** Starts `buffer` so its first sample is heard at context time `when` (or part way in, if that is past). */
  private startAt(
    ctx: AudioContext,
    buffer: AudioBuffer,
    when: number,
    now: number,
    out: AudioNode,
  ): AudioBufferSourceNode | null {
    const start = startOf(when, now, buffer.duration);
    if (!start) return null;
    const src = ctx.createBufferSource();
    src.buffer = buffer;
    src.connect(out);
    src.start(start.at, start.offset);
    this.sources.push(src);
    return src;
  }

  private takeGain(ctx: AudioContext): AudioNode {
    if (!this.takeOut) {
      this.takeOut = ctx.createGain();
      this.takeOut.connect(ctx.destination);
    }
    return this.takeOut;
  }

  /**
   * The bed from clip time `clip` heard at context time `when`: the background everywhere but the
   * actor's windows, the original only there (or, without a background, the original silenced
   * where takes play). Its gain steps are on the bed's own timeline, so they stay with its audio.
   */
  private startBed(ctx: AudioContext, plan: MixPlan, when: number, clip: number): AudioBufferSourceNode[] {
    const at = (c: number) => when + (c - clip);
    const automate = (param: AudioParam, steps: ReturnType<typeof gainSteps>) => {
      for (const s of steps) {
        const t = Math.max(when, at(s.at));
        if (s.ramp) param.linearRampToValueAtTime(s.value, t);
        else param.setValueAtTime(s.value, t);
      }
    };
    const play = (buffer: AudioBuffer, steps: ReturnType<typeof gainSteps>): AudioBufferSourceNode | null => {
      if (clip >= buffer.duration) return null;
      const gain = ctx.createGain();
      gain.connect(ctx.destination);
      automate(gain.gain, steps);
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.connect(gain);
      src.start(when, clip);
      src.onended = () => gain.disconnect();
      return src;
    };
    const original = this.original as AudioBuffer;
    const out = this.background
      ? [
          play(this.background, gainSteps(plan.actor, 0, 1, RAMP_SECONDS)),
          play(original, gainSteps(plan.actor, 1, 0, RAMP_SECONDS)),
        ]
      : [play(original, gainSteps(plan.dubbed, 0, 1, RAMP_SECONDS))];
    return out.filter((s): s is AudioBufferSourceNode => s !== null);
  }

  /** The player's AudioContext, made anew after dispose (decoded buffers serve any context). */
  private context(): AudioContext {
    if (!this.ctx || this.ctx.state === 'closed') this.ctx = new AudioContext({ latencyHint: 'playback' });
    return this.ctx;
  }

  async dispose(): Promise<void> {
    this.stop();
    await this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}

/** Calls `onFrame` for every frame the clip presents until `done()` (or the clip ends). */
function watchFrames(
  video: HTMLVideoElement,
  onFrame: (meta: { expectedDisplayTime: number; mediaTime: number }) => void,
  done: () => boolean,
): void {
  const v = video as FrameVideo;
  if (v.requestVideoFrameCallback) {
    const next = (_now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => {
      if (done()) return;
      onFrame(meta);
      if (!video.ended) v.requestVideoFrameCallback?.(next);
    };
    v.requestVideoFrameCallback(next);
    return;
  }
  // No frame callbacks (older Safari): the position every 50 ms, good to a frame or so.
  const tick = () => {
    if (done() || video.ended) return;
    onFrame({ expectedDisplayTime: performance.now(), mediaTime: video.currentTime });
    setTimeout(tick, 50);
  };
  tick();
}

/** The output clock is zero until the device renders; wait for it (at most about a second). */
async function untilOutputRunning(ctx: AudioContext): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const ts = outputTimestamp(ctx);
    if (ts.performanceTime > 0 && ts.contextTime > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
