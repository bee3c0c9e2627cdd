/**
 * The upload queue: every window's wav is written to IndexedDB and sent at once, the write and the
 * request side by side (a take is kept as soon as it would be if written first); it leaves the store
 * only when the AI service has scored it and its write is done. Failures retry with backoff; `kick`
 * (back online), a new login, or the retry button send at once. So no recording is lost to a dropped
 * connection, a stopped service or a reload. The app has one queue (app-queue.ts); start.ts owns what
 * triggers it.
 *
 * Each take belongs to the learner who recorded it (`owner`). The queue holds, sends and reports only
 * the takes of the learner logged in now; other learners' takes stay stored, untouched, until their
 * owner logs in on this device again. Across tabs, a Web Lock per take (upload-locks.ts) keeps two
 * tabs from sending the same take at once.
 */
import { signal } from '@preact/signals-react';
import type { SpeechScore } from '../../../api/contract';
import { errorMessage } from '../../../api/errors';
import { backoffMs, classifyUploadError } from './backoff';
import type { LineState } from './line-state';
import { browserLocks, HELD_ELSEWHERE, type UploadLocks, withUploadLock } from './upload-locks';
import type { PendingUpload, UploadStore } from './upload-store';

/** How soon a take another tab was sending is looked at again (by then it is usually scored and gone). */
export const HELD_ELSEWHERE_RECHECK_MS = 5000;

export interface UploadQueueDeps {
  store: UploadStore;
  send(
    item: PendingUpload,
    onProgress: (fraction: number | null) => void,
    signal: AbortSignal,
  ): Promise<SpeechScore>;
  onScored(item: PendingUpload, result: SpeechScore): void;
  onState(item: PendingUpload, state: LineState): void;
  /**
   * The learner the next request's token belongs to (learner.ts `currentLearner`), null when nobody
   * is logged in. Asked before every send: the token is read from the cookie at send time.
   */
  learner(): string | null;
  /** Web Locks (default `navigator.locks`); null: no cross-tab locking, every tab sends. */
  locks?: UploadLocks | null;
  now?: () => number;
  random?: () => number;
  /** Uploads in flight at once (kiosk uplinks are slow; two keeps the pipe full without starving the page). */
  concurrency?: number;
}

export type NewUpload = Omit<
  PendingUpload,
  'tries' | 'notBefore' | 'createdAt' | 'lastError' | 'failed' | 'owner'
>;

export class UploadQueue {
  /** Uploads of the current learner waiting or in flight (for the debug overlay and the page). */
  readonly depth = signal(0);
  readonly inFlight = signal(0);
  /** True while waiting for a new login (a 1002 answer): nothing is sent until `resumeAfterLogin`. */
  readonly blockedBySession = signal(false);
  /** The current learner's uploads; other learners' stay in the store only. */
  private readonly items = new Map<string, PendingUpload>();
  /** Uploads being sent (or checked under their lock), with the abort that stops them. */
  private readonly sending = new Map<string, { item: PendingUpload; controller: AbortController }>();
  /**
   * Uploads this queue saw leave the store: scored here, or found gone (another tab sent them). A
   * `resume` that read the store before one of them was removed must not bring it back (the app start
   * and the dub page both resume the same queue).
   */
  private readonly done = new Set<string>();
  /**
   * New uploads whose first write to the store is under way. One is sent meanwhile without asking the
   * store whether it is still there: no other tab can know of it before that write, and this queue
   * asked for its lock before it (upload-locks.ts).
   */
  private readonly storing = new Map<string, Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private readonly now: () => number;
  private readonly locks: UploadLocks | null;
  /** Whose uploads `items` holds: the learner logged in when the queue last looked. */
  private learner: string | null;
  /** The last learner seen logged in: owns a take recorded while the token is briefly missing. */
  private lastLearner: string | null;

  constructor(private readonly deps: UploadQueueDeps) {
    this.now = deps.now ?? Date.now;
    this.locks = deps.locks === undefined ? browserLocks() : deps.locks;
    this.learner = deps.learner();
    this.lastLearner = this.learner;
  }

  /**
   * Loads the current learner's uploads left by an earlier page (or an earlier crash) and starts
   * sending them. Returns them (other learners' stored uploads are neither loaded nor returned).
   */
  async resume(): Promise<PendingUpload[]> {
    const stored = await this.deps.store.all();
    this.checkLearner();
    const learner = this.learner;
    const mine: PendingUpload[] = [];
    if (learner !== null) {
      for (const item of stored) {
        if (item.owner !== learner) continue;
        mine.push(item);
        if (this.items.has(item.uploadId) || this.done.has(item.uploadId)) continue;
        this.items.set(item.uploadId, item);
        this.report(item);
      }
    }
    this.pump();
    return mine;
  }

  /**
   * Stores and sends. Resolves once the take is safe in IndexedDB (or scored); rejects when no
   * learner was ever logged in for this queue (nobody could ever send it), or when the take could be
   * neither stored nor scored (its send is then stopped).
   */
  async enqueue(upload: NewUpload): Promise<void> {
    this.syncLearner();
    // The page's learner made it, even if the cookie is gone for a moment (expired, another tab logged
    // out): then it waits, stored under them.
    const owner = this.learner ?? this.lastLearner;
    if (owner === null) throw new Error('No learner is logged in: the take cannot be kept for anyone');
    const item: PendingUpload = { ...upload, createdAt: this.now(), tries: 0, notBefore: 0, owner };
    const stored = this.deps.store.put(item);
    this.storing.set(item.uploadId, stored);
    this.report(item); // the person at the screen just made it, whoever is logged in
    if (this.learner !== null && item.owner === this.learner) this.items.set(item.uploadId, item);
    this.pump();
    try {
      await stored;
    } catch (e) {
      if (this.done.has(item.uploadId)) return; // scored meanwhile: nothing is lost
      this.sending.get(item.uploadId)?.controller.abort();
      this.items.delete(item.uploadId);
      this.depth.value = this.items.size;
      this.deps.onState(item, { stage: 'idle' });
      throw e;
    } finally {
      this.storing.delete(item.uploadId);
    }
  }

  /** The line's retry button: clears a give-up or a backoff wait and sends now. */
  retry(uploadId: string): void {
    const item = this.items.get(uploadId);
    if (!item) return;
    item.failed = false;
    item.notBefore = 0;
    void this.deps.store.put(item);
    this.report(item);
    this.pump();
  }

  /** After a new login: send what waited for it. */
  resumeAfterLogin(): void {
    this.blockedBySession.value = false;
    this.kick();
  }

  /**
   * The token or the user info changed (a login, a logout, another tab): stop serving the previous
   * learner and load the new one's uploads. Also checked before every send, so a missed call only
   * delays the switch.
   */
  learnerChanged(): void {
    this.pump();
  }

  pendingFor(subtitlesId: string): PendingUpload[] {
    return [...this.items.values()].filter((i) => i.subtitlesId === subtitlesId);
  }

  get size(): number {
    return this.items.size;
  }

  /** Stops the timer; in-flight uploads are aborted and stay stored for the next page. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { controller } of this.sending.values()) controller.abort();
  }

  /** Sends everything waiting now, ignoring backoff (online again, or logged in again). */
  kick(): void {
    for (const item of this.items.values()) if (!item.failed) item.notBefore = 0;
    this.pump();
  }

  /**
   * Compares the learner logged in now with the one the queue serves. On a change, the previous
   * learner's sends are aborted (they stay stored, untouched: the server may have scored one, and
   * takeId makes its resend harmless) and their lines are cleared. Answers whether it changed.
   */
  private checkLearner(): boolean {
    if (this.disposed) return false;
    const learner = this.deps.learner();
    if (learner === this.learner) return false;
    this.learner = learner;
    if (learner !== null) this.lastLearner = learner;
    // A new token: a 1002 of the previous session says nothing about this one.
    this.blockedBySession.value = false;
    for (const { item, controller } of this.sending.values()) {
      if (item.owner !== learner) controller.abort();
    }
    for (const item of [...this.items.values()]) {
      if (item.owner === learner) continue;
      this.items.delete(item.uploadId);
      this.deps.onState(item, { stage: 'idle' });
    }
    this.depth.value = this.items.size;
    return true;
  }

  /** `checkLearner`, then loads the new learner's uploads if there is a new one. */
  private syncLearner(): void {
    if (this.checkLearner() && this.learner !== null) {
      void this.resume().catch((e) => console.error('[uploads] cannot read pending uploads', e));
    }
  }

  private pump(): void {
    if (this.disposed) return;
    this.syncLearner();
    this.depth.value = this.items.size;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.blockedBySession.peek() || this.learner === null) return;
    const limit = this.deps.concurrency ?? 2;
    const now = this.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const item of this.items.values()) {
      if (this.sending.size >= limit) break;
      if (this.sending.has(item.uploadId) || item.failed) continue;
      if (item.notBefore > now) {
        nextDue = Math.min(nextDue, item.notBefore);
        continue;
      }
      void this.sendOne(item);
    }
    if (Number.isFinite(nextDue)) this.timer = setTimeout(() => this.pump(), Math.max(0, nextDue - now));
  }

  private async sendOne(item: PendingUpload): Promise<void> {
    const controller = new AbortController();
    this.sending.set(item.uploadId, { item, controller });
    this.inFlight.value = this.sending.size;
    const stopped = () => controller.signal.aborted || this.disposed;
    try {
      const outcome = await withUploadLock(this.locks, item.uploadId, async () => {
        // Holding the lock: a tab that sent it before us has removed it by now (a new upload still
        // being written is known to no other tab).
        if (!this.storing.has(item.uploadId) && !(await this.deps.store.has(item.uploadId)))
          return 'gone' as const;
        // The token is read when the request is built, a few microtasks from here.
        if (stopped() || this.deps.learner() !== item.owner) return 'stopped' as const;
        this.deps.onState(item, { stage: 'uploading', progress: 0, attempt: item.attempt });
        const result = await this.deps.send(
          item,
          (progress) => {
            if (!stopped()) this.deps.onState(item, { stage: 'uploading', progress, attempt: item.attempt });
          },
          controller.signal,
        );
        this.done.add(item.uploadId);
        this.items.delete(item.uploadId);
        this.depth.value = this.items.size;
        // The stored copy goes once its first write is done (a failed one left nothing to remove),
        // and the score is shown without waiting for it (an IndexedDB transaction, tens of ms on a
        // slow phone). A copy that could not be removed is sent again from a later page and answered
        // with the stored score (the server keys a take by its takeId).
        const removed = (this.storing.get(item.uploadId) ?? Promise.resolve())
          .catch(() => undefined)
          .then(() => this.deps.store.remove(item.uploadId))
          .catch((err) => console.error('[uploads] cannot remove a scored upload', err));
        // Scored for its owner either way; shown only if they are still the one logged in here.
        if (this.deps.learner() === item.owner) this.deps.onScored(item, result);
        await removed;
        return 'scored' as const;
      });
      if (outcome === HELD_ELSEWHERE) {
        // Another tab is sending it: look again later, when it is usually gone. Not a failed try.
        item.notBefore = this.now() + HELD_ELSEWHERE_RECHECK_MS;
        if (this.items.get(item.uploadId) === item) {
          this.deps.onState(item, { stage: 'queued', message: item.lastError, attempt: item.attempt });
        }
      } else if (outcome === 'gone') {
        // Another tab sent it (and showed its score); this tab has no score to show, only no longer
        // a pending take.
        this.done.add(item.uploadId);
        if (this.items.get(item.uploadId) === item) {
          this.items.delete(item.uploadId);
          this.deps.onState(item, { stage: 'idle' });
        }
      }
    } catch (e) {
      // Aborted by dispose or by a learner change: it stays stored as it was, for its owner.
      if (stopped()) return;
      item.tries++;
      item.lastError = errorMessage(e);
      const verdict = classifyUploadError(e);
      if (verdict === 'session') this.blockedBySession.value = true;
      if (verdict === 'reject') item.failed = true;
      else item.notBefore = this.now() + backoffMs(item.tries, this.deps.random);
      await this.deps.store
        .put(item)
        .catch((err) => console.error('[uploads] cannot persist upload state', err));
      this.report(item);
    } finally {
      this.sending.delete(item.uploadId);
      this.inFlight.value = this.sending.size;
      this.pump();
    }
  }

  private report(item: PendingUpload): void {
    if (item.failed) {
      this.deps.onState(item, { stage: 'failed', message: item.lastError, attempt: item.attempt });
    } else {
      this.deps.onState(item, {
        stage: 'queued',
        message: item.lastError,
        retryAt: item.notBefore || undefined,
        attempt: item.attempt,
      });
    }
  }
}
