/**
 * The dub session controller: scene take (the whole clip, every line) and line retake (one line).
 * Page code: it drives the video and the recorder and routes each finished window to the upload
 * queue, but audio samples stay in the worklet and the worker; the page only wraps the finished wav
 * bytes in a Blob for playback and upload.
 */
import { computed, signal } from '@preact/signals-react';
import type { Remote } from 'comlink';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../../audio/constants';
import { MicrophoneError, type MicrophoneReason } from '../../../audio/capture/microphone';
import type { LevelReading, Recorder } from '../../../audio/capture/recorder';
import type { SubtitleWindowTimes } from '../../../audio/dsp/windows';
import type { EncoderApi } from '../../../workers/encoder-api';
import type { EncoderBridge } from '../../../workers/encoder-bridge';
import type {
  EncodedWindow,
  PipelineStats,
  TakeSummary,
  TimelineAnchor,
} from '../../../workers/encoder-types';
import type { SubtitleLine } from '../../lib/movie-detail';
import { ClipFollower } from '../../lib/clip-follower';
import { prpt } from '../../stores/films';
import {
  attemptsUsed,
  nextAttempt,
  scoresRunOf,
  subTitlesScores,
} from '../../stores/takes/sub-titles-scores';
import { latestTakesFromScores } from '../../stores/takes/latest-takes';
import { type LeadInPlan, LeadInPlayer, leadInSound, planLeadIn } from './lead-in';
import { WindowCount } from './window-count';
import { PitchRing } from './pitch-guide-data';
import { lineStates, patchLineState, setLineState } from '../../stores/uploads/line-state';
import { lineEvents } from './line-events';
import type { UploadQueue } from '../../stores/uploads/upload-queue';
import {
  anchorAtFirstFrame,
  CLIP_START_WAIT_MS,
  ClipError,
  clipStartedWithin,
  playUntil,
  seek,
  startPlaying,
} from '../../lib/video-anchor';
import { trackTake } from '../../stores/takes-in-progress';

export type TakePhase = 'idle' | 'preparing' | 'count-in' | 'recording' | 'finishing';

/** Why a take could not run, as a code the screen words in the learner's language (`dub.problem.*`). */
export type TakeProblem = `mic-${MicrophoneReason}` | 'not-ready' | 'clip-failed' | 'failed';

/** The recorder, the worker or the clip did not get ready in time. */
export class TakeNotReadyError extends Error {
  override name = 'TakeNotReadyError';
}

export function problemOf(e: unknown): TakeProblem {
  if (e instanceof MicrophoneError) return `mic-${e.reason}`;
  if (e instanceof TakeNotReadyError) return 'not-ready';
  if (e instanceof ClipError) return 'clip-failed';
  return 'failed';
}

export interface DubSessionDeps {
  filmId: string;
  queue: UploadQueue;
  bridge: EncoderBridge;
  createRecorder: () => Promise<Recorder>;
  marginSeconds?: number;
  countInSeconds?: number;
  /** How long the recorder, the worker and the clip may take to get ready before the take gives up. */
  prepareTimeoutMs?: number;
  /** How long a take waits for its clip to start and show a frame (default CLIP_START_WAIT_MS). */
  clipStartWaitMs?: number;
  /** Object URLs of this page's takes, by upload id (the page revokes them on leave). */
  sources: Map<string, string>;
  /** The film's lines, for a retake's lead-in (default: the prpt film the page shows). */
  filmLines?: () => readonly SubtitleLine[];
}

const filmLinesOfPage = (): readonly SubtitleLine[] => prpt.movieDetail.peek()?.subtitlesList ?? [];

/** Seconds of clip played before the film's first line when it is retaken (muted: there is no line before it). */
const RETAKE_PREROLL = 1.5;
/** Seconds kept rolling after the last window closes, so its end is surely captured. */
const TAIL = 0.3;
/**
 * How long a take may keep capturing after the clip stopped, for a last window still open on the
 * capture clock (WindowCount): longer than the capture clock has been seen behind the clip's at a
 * take's end (1.5 s, Firefox on a loaded machine), short enough not to hold the learner.
 */
const CLOSE_WAIT_MS = 2000;
const PITCH_POINTS = 150;
/**
 * Getting ready (capture started in the worker, clip seeked) takes well under a second; a worker that
 * never answers or a clip that never seeks would otherwise leave the page in "preparing" for good.
 * Not counted: the microphone permission prompt, which waits for the learner.
 */
const PREPARE_TIMEOUT_MS = 15_000;

/** What a take plays: its lines, the clip from `from` to `to` (s), and a retake's lead-in. */
interface TakePlan {
  video: HTMLVideoElement;
  lines: SubtitleLine[];
  from: number;
  to: number;
  leadIn: LeadInPlan | null;
}

/** One take under way: its plan and the state its steps share. */
interface TakeRun extends TakePlan {
  /** Aborted by Stop. */
  stop: AbortSignal;
  preparing: Preparing;
  /** Each line's attempt, fixed when the take starts. */
  attempts: ReadonlyMap<string, 1 | 2 | null>;
  /** The run on screen when the take starts: its windows join it, even if the session ends meanwhile. */
  runId: string | undefined;
  /** The windows handed to the upload queue; the take is done once they are queued. */
  handed: Promise<void>[];
  /** Windows planned in the worker and handed out by it: the take captures until they match. */
  windows: WindowCount;
  /** True from the capture's start in the worker until the recorder finished the take. */
  capturing: boolean;
}

/**
 * Getting a take ready, aborted by Stop or by the timeout. Once the count-in starts (`ready`) it is
 * never aborted, so Stop during the take finishes it normally (the worker must live to hand out
 * windows).
 */
interface Preparing {
  signal: AbortSignal;
  /** Starts the timeout: after the microphone permission prompt, which waits for the learner. */
  startTimer(ms: number): void;
  /** Neither Stop nor the timeout aborts it any more. */
  ready(): void;
}

function preparingFor(stop: AbortSignal): Preparing {
  const preparing = new AbortController();
  const stopWhilePreparing = () => preparing.abort(stop.reason);
  stop.addEventListener('abort', stopWhilePreparing, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    signal: preparing.signal,
    startTimer(ms) {
      timer = setTimeout(
        () => preparing.abort(new TakeNotReadyError('The take did not get ready in time')),
        ms,
      );
    },
    ready() {
      clearTimeout(timer);
      stop.removeEventListener('abort', stopWhilePreparing);
    },
  };
}

/**
 * A clip that stands still (its media refused after the session ended, or paused by the browser) ends
 * the take as Stop does: the windows closed so far are kept.
 */
const clipStalled = (video: HTMLVideoElement) => {
  const buffered = Array.from(
    { length: video.buffered.length },
    (_, i) => `${video.buffered.start(i).toFixed(2)}–${video.buffered.end(i).toFixed(2)}`,
  );
  console.warn(
    `[dub] the clip stood still: the take ends here (at ${video.currentTime.toFixed(2)} s of ${video.duration.toFixed(2)}, paused ${video.paused}, readyState ${video.readyState}, networkState ${video.networkState}, buffered ${buffered.join(' ') || 'none'}, error ${video.error?.code ?? 'none'})`,
  );
};

export class DubSession {
  readonly phase = signal<TakePhase>('idle');
  /**
   * True while a take runs (any phase but idle). Rows read this rather than the phase, so only a
   * change between idle and busy reaches them, and only the buttons it disables re-render.
   */
  readonly busy = computed(() => this.phase.value !== 'idle');
  readonly countdown = signal(0);
  readonly level = signal<LevelReading | null>(null);
  /** Frames the worklet dropped; changes rarely, so the overlay can render from it (level changes 30×/s). */
  readonly workletDropped = signal(0);
  /** Frames the browser did not deliver mid-take (see src/audio/worklet/capture-processor.ts). */
  readonly inputSkipped = signal(0);
  readonly stats = signal<PipelineStats | null>(null);
  /** Recent live pitch values (Hz, null = unvoiced), oldest first. */
  readonly pitchTrace = signal<(number | null)[]>([]);
  /** The learner's live pitch for the pitch guide (Hz, by clip time): no signal. */
  readonly guideTrace = new PitchRing();
  /** The clip of the take in progress, whose position stamps each live pitch point. */
  private clip: HTMLVideoElement | null = null;
  /** Why the last take failed (null: it did not). */
  readonly error = signal<TakeProblem | null>(null);
  readonly lastSummary = signal<TakeSummary | null>(null);
  readonly recorderKind = signal<Recorder['kind'] | null>(null);
  private recorder: Recorder | null = null;
  /** A recorder being opened; a take stopped at the permission prompt leaves it to the next take. */
  private opening: Promise<Recorder> | null = null;
  private abort: AbortController | null = null;
  private readonly margin: number;

  constructor(private readonly deps: DubSessionDeps) {
    this.margin = deps.marginSeconds ?? DEFAULT_WINDOW_MARGIN_SECONDS;
  }

  /**
   * Which attempt a new take of this line fills: 2 once a first one is scored or still on its way;
   * null once both attempts hold speech (a whole-scene take then leaves the line as it is).
   */
  attemptFor(subtitlesId: string): 1 | 2 | null {
    if (attemptsUsed(subTitlesScores.peek()[subtitlesId])) return null;
    if (nextAttempt(subtitlesId) === 2) return 2;
    return this.deps.queue.pendingFor(subtitlesId).length > 0 ? 2 : 1;
  }

  sceneTake(video: HTMLVideoElement, lines: SubtitleLine[]): Promise<TakeSummary | null> {
    return trackTake(this.sceneTakeOf(video, lines));
  }

  private sceneTakeOf(video: HTMLVideoElement, lines: SubtitleLine[]): Promise<TakeSummary | null> {
    if (lines.length === 0) return Promise.resolve(null);
    const last = Math.max(...lines.map((l) => l.endTime_m));
    const end = Number.isFinite(video.duration)
      ? Math.min(video.duration, last + this.margin + TAIL)
      : last + this.margin + TAIL;
    return this.take(video, lines, 0, end);
  }

  /**
   * One line again. After the film's first line the retake has a lead-in: the previous line plays
   * with its sound (the actor's, or the learner's own take, `leadInSound`) while the count-in runs.
   */
  lineRetake(video: HTMLVideoElement, line: SubtitleLine): Promise<TakeSummary | null> {
    return trackTake(this.lineRetakeOf(video, line));
  }

  private lineRetakeOf(video: HTMLVideoElement, line: SubtitleLine): Promise<TakeSummary | null> {
    const takes = latestTakesFromScores(subTitlesScores.peek());
    const leadIn = planLeadIn(
      (this.deps.filmLines ?? filmLinesOfPage)(),
      line,
      this.margin,
      leadInSound.peek(),
      (id) => takes[id] ?? null,
    );
    const from = leadIn ? leadIn.from : Math.max(0, line.startTime_m - RETAKE_PREROLL);
    return this.take(video, [line], from, line.endTime_m + this.margin + TAIL, leadIn);
  }

  /** Stops the take in progress; windows already closed are still uploaded. */
  stop(): void {
    this.abort?.abort(new DOMException('Take stopped', 'AbortError'));
  }

  async dispose(): Promise<void> {
    this.stop();
    await this.recorder?.close();
    this.recorder = null;
  }

  /**
   * Gets ready (recorder, worker, clip), rolls the clip from `from` to `to` with a count-in, then
   * finishes the take; null when it could not run or was stopped before the count-in.
   */
  private async take(
    video: HTMLVideoElement,
    lines: SubtitleLine[],
    from: number,
    to: number,
    leadIn: LeadInPlan | null = null,
  ): Promise<TakeSummary | null> {
    if (this.phase.peek() !== 'idle') return null;
    const run = this.beginTake({ video, lines, from, to, leadIn });
    let unsubscribe = () => {};
    try {
      const recorder = await untilAborted(this.openRecorder(), run.preparing.signal);
      this.recorderKind.value = recorder.kind;
      run.preparing.startTimer(this.deps.prepareTimeoutMs ?? PREPARE_TIMEOUT_MS);
      unsubscribe = this.followLevel(recorder);
      const takeId = crypto.randomUUID();
      // With `preparing.signal`, a worker that never answers is terminated and the run rejects.
      return await this.deps.bridge.run(
        (api) => this.capture(api, recorder, takeId, run),
        run.preparing.signal,
      );
    } catch (e) {
      await this.abandon(e, run);
      return null;
    } finally {
      run.preparing.ready();
      unsubscribe();
      this.endTake();
    }
  }

  /** The screen's take state reset, and what the take keeps from its start: attempts, run, Stop. */
  private beginTake(plan: TakePlan): TakeRun {
    this.error.value = null;
    this.phase.value = 'preparing';
    this.clip = plan.video;
    this.guideTrace.clear();
    const abort = new AbortController();
    this.abort = abort;
    return {
      ...plan,
      stop: abort.signal,
      attempts: new Map(plan.lines.map((l) => [l.id, this.attemptFor(l.id)] as const)),
      runId: scoresRunOf(this.deps.filmId),
      handed: [],
      windows: new WindowCount(),
      preparing: preparingFor(abort.signal),
      capturing: false,
    };
  }

  /** The level meter and the dropped-frame count follow the recorder; returns the unsubscribe. */
  private followLevel(recorder: Recorder): () => void {
    return recorder.onLevel((l) => {
      this.level.value = l;
      if (l.dropped !== this.workletDropped.peek()) this.workletDropped.value = l.dropped;
      if (l.skipped !== this.inputSkipped.peek()) this.inputSkipped.value = l.skipped;
    });
  }

  /** Inside the worker's run: capture starts, the clip is seeked and rolls, the take is finished. */
  private async capture(
    api: Remote<EncoderApi>,
    recorder: Recorder,
    takeId: string,
    run: TakeRun,
  ): Promise<TakeSummary> {
    run.capturing = true;
    await recorder.startTake(
      api,
      { takeId, marginSeconds: this.margin, lookbackSeconds: 6 },
      {
        onWindow: (w) => {
          run.windows.addClosed();
          const attempt = run.attempts.get(w.subtitlesId) ?? 1;
          // Both attempts used: the window is not sent (the server would refuse a third).
          if (attempt !== null) run.handed.push(this.onWindow(w, attempt, run.runId));
        },
        onStats: (s) => this.onStats(s),
      },
    );
    run.video.pause();
    run.video.muted = true;
    await seek(run.video, run.from, run.preparing.signal);
    run.preparing.signal.throwIfAborted();
    run.preparing.ready();
    try {
      await this.roll(api, recorder, run);
    } catch (e) {
      // Stop pressed: finish the take normally so lines already closed are kept.
      if (!run.stop.aborted) throw e;
    }
    return this.finish(recorder, run);
  }

  /** The count-in, then the clip up to `to`, each line's stage following the clip's position. */
  private async roll(api: Remote<EncoderApi>, recorder: Recorder, run: TakeRun): Promise<void> {
    const timeline = run.lines.map((l) => ({
      id: l.id,
      startSeconds: l.startTime_m,
      endSeconds: l.endTime_m,
    }));
    // Lines already marked recording in this take: a line whose window is scored before the clip's
    // clock passes its end must not be set back to recording (it then stuck at encoding).
    const started = new Set<string>();
    const follow = (t: number) => this.trackLines(run.lines, t, started);
    if (run.leadIn) await this.rollWithLeadIn(api, recorder, run, run.leadIn, timeline, follow);
    else await this.rollAfterCountIn(api, recorder, run, timeline, follow);
  }

  /**
   * A retake after the film's first line: the clip rolls from the previous line with its sound while
   * the count-in runs down to this line; the lead-in falls silent before the line's window opens.
   */
  private async rollWithLeadIn(
    api: Remote<EncoderApi>,
    recorder: Recorder,
    run: TakeRun,
    leadIn: LeadInPlan,
    timeline: SubtitleWindowTimes[],
    follow: (t: number) => void,
  ): Promise<void> {
    const { video } = run;
    const line = run.lines[0];
    const player = new LeadInPlayer(leadIn, video);
    this.phase.value = 'count-in';
    this.countdown.value = Math.max(1, Math.ceil(line.startTime_m - run.from));
    const anchor = anchorAtFirstFrame(video, recorder.clock);
    // The lead-in's sound is on as the clip starts, not once play() answers (startPlaying may wait for
    // the clip to move on: its first few hundred ms would be silent).
    player.start(video.currentTime);
    try {
      const follower = await this.startClip(api, recorder, run, anchor, timeline);
      await this.playFollowing(run, follower, (t) => {
        player.tick(t);
        if (this.phase.peek() === 'count-in') {
          const left = line.startTime_m - t;
          if (left > 0) this.countdown.value = Math.ceil(left);
          else {
            this.countdown.value = 0;
            this.phase.value = 'recording';
          }
        }
        follow(t);
      });
    } finally {
      player.stop();
    }
  }

  /** Count-in while already capturing (the look-back ring covers a first line at 0 s), then the clip. */
  private async rollAfterCountIn(
    api: Remote<EncoderApi>,
    recorder: Recorder,
    run: TakeRun,
    timeline: SubtitleWindowTimes[],
    follow: (t: number) => void,
  ): Promise<void> {
    this.phase.value = 'count-in';
    for (let n = this.deps.countInSeconds ?? 3; n > 0; n--) {
      this.countdown.value = n;
      await sleep(1000, run.stop);
    }
    this.countdown.value = 0;
    this.phase.value = 'recording';
    const anchor = anchorAtFirstFrame(run.video, recorder.clock);
    const follower = await this.startClip(api, recorder, run, anchor, timeline);
    await this.playFollowing(run, follower, follow);
  }

  /**
   * The clip started and the take's windows planned from its first frame; returns the follower that
   * keeps them on the clip from there (ClipFollower). A clip whose play() never answers (WebKitGTK
   * after a seek back, see startPlaying) or a frame that never shows must not hold the take, and its
   * Stop button, in recording: Stop ends the wait, and so does its time bound, with the clip's problem.
   */
  private async startClip(
    api: Remote<EncoderApi>,
    recorder: Recorder,
    run: TakeRun,
    anchor: Promise<TimelineAnchor>,
    timeline: SubtitleWindowTimes[],
  ): Promise<ClipFollower> {
    const started = startPlaying(run.video).then(() => anchor);
    const waitMs = this.deps.clipStartWaitMs ?? CLIP_START_WAIT_MS;
    let at: TimelineAnchor;
    try {
      at = await untilAborted(clipStartedWithin(run.video, started, waitMs), run.stop);
    } catch (e) {
      // A play() that answers later must not roll the clip behind an ended take.
      if (e instanceof ClipError) run.video.pause();
      throw e;
    }
    run.windows.addPlanned((await api.setTimeline(at, timeline)).length);
    return new ClipFollower(run.video, recorder.clock, at, (moved, since) => {
      console.warn(
        `[dub] the clip moved ${((moved.contextTime - at.contextTime) * 1000).toFixed(0)} ms in all against the take's clock since its first frame, the last move at ${since.toFixed(2)} s of the clip: the windows not yet closed follow it`,
      );
      api
        .retime(moved, since)
        .catch((e: unknown) => console.warn('[dub] the windows could not follow the clip', e));
    });
  }

  /** Plays the clip to `to` (playUntil) with the take's windows following it; the follower stops after. */
  private async playFollowing(
    run: TakeRun,
    follower: ClipFollower,
    tick: (t: number) => void,
  ): Promise<void> {
    try {
      await playUntil(
        run.video,
        run.to,
        run.stop,
        (t) => {
          follower.tick(t);
          tick(t);
        },
        () => clipStalled(run.video),
      );
    } finally {
      follower.stop();
    }
  }

  /** The clip stops and the worker closes the take; done once every window is in the upload queue. */
  private async finish(recorder: Recorder, run: TakeRun): Promise<TakeSummary> {
    run.video.pause();
    this.phase.value = 'finishing';
    // The capture clock may be behind the clip's: keep capturing until the last window has closed
    // (not after Stop, which ends the take now).
    if (!run.stop.aborted && !(await run.windows.allClosed(CLOSE_WAIT_MS)))
      console.warn(`[dub] the take stopped ${CLOSE_WAIT_MS} ms after the clip with a window still open`);
    const summary = await recorder.finishTake();
    run.capturing = false;
    await Promise.all(run.handed);
    for (const id of summary.skipped) setLineState(id, { stage: 'idle' });
    this.lastSummary.value = summary;
    return summary;
  }

  /** A take that failed, or was stopped while getting ready: its problem shown, its lines let go. */
  private async abandon(e: unknown, run: TakeRun): Promise<void> {
    const stopped = run.preparing.signal.aborted && run.preparing.signal.reason === run.stop.reason;
    if (!stopped) {
      console.error('[dub] take failed', e);
      this.error.value = problemOf(e);
    }
    if (run.capturing) {
      // The take never finished: its capture may still be running. Release the microphone so the
      // next take starts from a clean graph (and a fresh worker, if this one was terminated).
      const recorder = this.recorder;
      this.recorder = null;
      await recorder?.close().catch((err) => console.error('[dub] cannot close the recorder', err));
    }
    for (const l of run.lines) {
      const s = lineStates.peek()[l.id]?.stage;
      if (s === 'recording' || s === 'encoding') setLineState(l.id, { stage: 'idle' });
    }
  }

  /** Back to idle, however the take ended. */
  private endTake(): void {
    this.level.value = null;
    this.phase.value = 'idle';
    this.countdown.value = 0;
    this.abort = null;
    this.releaseRecorder();
  }

  /**
   * After a take the microphone is released (the browser's indicator goes off while the learner reads
   * the scores); the next take opens it again. Not while one is being opened for a take.
   */
  private releaseRecorder(): void {
    const recorder = this.recorder;
    if (!recorder || this.opening) return;
    this.recorder = null;
    void recorder.close().catch((err) => console.error('[dub] cannot close the recorder', err));
  }

  /** The recorder, opened once (the microphone permission prompt, if any, waits here). */
  private openRecorder(): Promise<Recorder> {
    if (this.recorder) return Promise.resolve(this.recorder);
    this.opening ??= this.deps
      .createRecorder()
      .then((r) => {
        this.recorder = r;
        return r;
      })
      .finally(() => {
        this.opening = null;
      });
    return this.opening;
  }

  /** Line stages from the clip position: recording inside the window, encoding once it has passed. */
  private trackLines(lines: SubtitleLine[], t: number, started: Set<string>): void {
    for (const l of lines) {
      const stage = lineStates.peek()[l.id]?.stage;
      if (t >= l.endTime_m + this.margin) {
        if (stage === 'recording') patchLineState(l.id, { stage: 'encoding' });
      } else if (t >= l.startTime_m - this.margin && !started.has(l.id)) {
        started.add(l.id);
        setLineState(l.id, { stage: 'recording' });
      }
    }
  }

  private async onWindow(w: EncodedWindow, attempt: 1 | 2, runId: string | undefined): Promise<void> {
    if (!w.complete) {
      setLineState(w.subtitlesId, { stage: 'failed', message: 'incomplete' });
      return;
    }
    const uploadId = crypto.randomUUID();
    lineEvents.emit('window', { uploadId, window: w });
    // The Blob copies the bytes, so the queue can keep (and store) the ArrayBuffer itself.
    this.deps.sources.set(uploadId, URL.createObjectURL(new Blob([w.wav], { type: 'audio/wav' })));
    await this.deps.queue.enqueue({
      uploadId,
      sceneTakeId: w.takeId,
      subtitlesId: w.subtitlesId,
      filmId: this.deps.filmId,
      attempt,
      // The run this screen showed when the take started (restored from get_run or started by the
      // answers): the take joins it.
      runId,
      wav: w.wav,
    });
  }

  private onStats(s: PipelineStats): void {
    this.stats.value = s;
    if (this.clip && this.phase.peek() === 'recording')
      this.guideTrace.push(this.clip.currentTime, s.pitchHz);
    const trace = this.pitchTrace.peek();
    this.pitchTrace.value = [...trace.slice(-(PITCH_POINTS - 1)), s.pitchHz];
  }
}

/** Settles like `promise`, or rejects with the signal's reason when it aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.throwIfAborted();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
