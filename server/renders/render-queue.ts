/**
 * A bounded queue of dubbed-video renders: at most `concurrency` run at once (each is an ffmpeg child
 * process), one per run at a time; asking again for a run that is already queued or running is a
 * no-op (the job reads what to render when it starts). In-process: the render's state is in the
 * database (dub_renders), so another instance answers it too.
 */
export class RenderQueue {
  private readonly waiting: { id: string; job: () => Promise<void> }[] = [];
  private readonly active = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly stopping = new AbortController();

  /** Aborted when the queue closes: a running render stops its ffmpeg instead of holding the shutdown. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  constructor(readonly concurrency: number) {}

  get size(): number {
    return this.waiting.length + this.active.size;
  }

  /** Queues `job` under `id` unless a job with that id is waiting (a running one may be followed by one more). */
  enqueue(id: string, job: () => Promise<void>): void {
    if (this.waiting.some((w) => w.id === id)) return;
    this.waiting.push({ id, job });
    this.pump();
  }

  /**
   * Drops the waiting jobs, aborts the running ones and resolves when they end (shutdown). An aborted
   * render stays "rendering" in the database and is queued again when it is next asked for.
   */
  close(): Promise<void> {
    this.waiting.length = 0;
    this.stopping.abort();
    return this.idle();
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active.size < this.concurrency) {
      const k = this.waiting.findIndex((w) => !this.active.has(w.id));
      if (k < 0) break;
      const [next] = this.waiting.splice(k, 1);
      this.active.add(next.id);
      void next
        .job()
        .catch(() => undefined)
        .finally(() => {
          this.active.delete(next.id);
          this.pump();
          if (this.size === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }
}
