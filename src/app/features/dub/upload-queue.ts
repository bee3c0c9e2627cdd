/**
 * The dub upload queue: every window's wav is written to IndexedDB first, then sent; it leaves the
 * store only when the AI service has scored it. Failures retry with backoff; coming back online, a
 * new login, or the retry button send at once. So no recording is lost to a dropped connection, a
 * stopped service or a reload. The app has one queue (dub-queue.ts); the app start
 * (resume-uploads.ts) and the dub page both resume that same instance, so a take is sent once.
 */
import { signal } from '@preact/signals-react';
import type { SpeechScore } from '../../../api/contract';
import { errorMessage } from '../../../api/errors';
import { backoffMs, classifyUploadError } from './backoff';
import type { LineState } from './line-state';
import type { PendingUpload, UploadStore } from './upload-store';

export interface UploadQueueDeps {
  store: UploadStore;
  send(
    item: PendingUpload,
    onProgress: (fraction: number | null) => void,
    signal: AbortSignal,
  ): Promise<SpeechScore>;
  onScored(item: PendingUpload, result: SpeechScore): void;
  onState(item: PendingUpload, state: LineState): void;
  now?: () => number;
  random?: () => number;
  /** Uploads in flight at once (kiosk uplinks are slow; two keeps the pipe full without starving the page). */
  concurrency?: number;
}

export type NewUpload = Omit<PendingUpload, 'tries' | 'notBefore' | 'createdAt' | 'lastError' | 'failed'>;

export class UploadQueue {
  /** Uploads waiting or in flight (for the debug overlay and the page). */
  readonly depth = signal(0);
  readonly inFlight = signal(0);
  /** True while waiting for a new login (a 1002 answer): nothing is sent until `resumeAfterLogin`. */
  readonly blockedBySession = signal(false);
  private readonly items = new Map<string, PendingUpload>();
  private readonly sending = new Set<string>();
  /**
   * Uploads this queue saw scored. A `resume` that read the store before one of them was removed
   * must not bring it back (the app start and the dub page both resume the same queue).
   */
  private readonly scored = new Set<string>();
  private readonly controllers = new Set<AbortController>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private readonly now: () => number;
  private readonly onOnline = () => this.kick();

  constructor(private readonly deps: UploadQueueDeps) {
    this.now = deps.now ?? Date.now;
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  /** Loads uploads left by an earlier page (or an earlier crash) and starts sending them. */
  async resume(): Promise<PendingUpload[]> {
    const stored = await this.deps.store.all();
    for (const item of stored) {
      if (this.items.has(item.uploadId) || this.scored.has(item.uploadId)) continue;
      this.items.set(item.uploadId, item);
      this.report(item);
    }
    this.pump();
    return stored;
  }

  /** Persists, then sends. Resolves once the take is safe in IndexedDB. */
  async enqueue(upload: NewUpload): Promise<void> {
    const item: PendingUpload = { ...upload, createdAt: this.now(), tries: 0, notBefore: 0 };
    await this.deps.store.put(item);
    this.items.set(item.uploadId, item);
    this.report(item);
    this.pump();
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

  pendingFor(subtitlesId: string): PendingUpload[] {
    return [...this.items.values()].filter((i) => i.subtitlesId === subtitlesId);
  }

  get size(): number {
    return this.items.size;
  }

  /** Stops timers and listeners; in-flight uploads are aborted and stay stored for the next page. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    for (const c of this.controllers) c.abort();
  }

  /** Sends everything waiting now, ignoring backoff (online again, or logged in again). */
  kick(): void {
    for (const item of this.items.values()) if (!item.failed) item.notBefore = 0;
    this.pump();
  }

  private pump(): void {
    if (this.disposed) return;
    this.depth.value = this.items.size;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.blockedBySession.peek()) return;
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
    this.sending.add(item.uploadId);
    this.inFlight.value = this.sending.size;
    const controller = new AbortController();
    this.controllers.add(controller);
    this.deps.onState(item, { stage: 'uploading', progress: 0, attempt: item.attempt });
    try {
      const result = await this.deps.send(
        item,
        (progress) => this.deps.onState(item, { stage: 'uploading', progress, attempt: item.attempt }),
        controller.signal,
      );
      this.scored.add(item.uploadId);
      this.items.delete(item.uploadId);
      await this.deps.store.remove(item.uploadId);
      this.deps.onScored(item, result);
    } catch (e) {
      if (this.disposed) return;
      item.tries++;
      item.lastError = errorMessage(e);
      const verdict = classifyUploadError(e);
      if (verdict === 'session') this.blockedBySession.value = true;
      if (verdict === 'reject') item.failed = true;
      else item.notBefore = this.now() + backoffMs(item.tries, this.deps.random);
      await this.deps.store.put(item).catch((err) => console.error('[dub] cannot persist upload state', err));
      this.report(item);
    } finally {
      this.controllers.delete(controller);
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
