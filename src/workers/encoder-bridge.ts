/**
 * The page's only way to the encoder worker (squoosh worker-bridge pattern): the worker starts on
 * first use, a call can be aborted with an AbortSignal (the worker is terminated: a running
 * resample cannot be interrupted from outside), and it is terminated after IDLE_MS without work.
 */
import * as Comlink from 'comlink';
import type { EncoderApi } from './encoder-api';

const IDLE_MS = 10_000;

/** One started worker and the runs holding it. */
interface Generation {
  worker: Worker;
  api: Comlink.Remote<EncoderApi>;
  holders: number;
  /** Aborted when this worker is terminated: runs still holding it fail instead of waiting forever. */
  stopped: AbortController;
}

export class EncoderBridge {
  private current: Generation | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly spawn: () => Worker = defaultSpawn) {}

  /** True while a worker exists (for the debug overlay and tests). */
  get running(): boolean {
    return this.current !== null;
  }

  /**
   * Runs `task` with the worker kept alive until it settles. If `signal` aborts first, the worker
   * is terminated and the promise rejects with the signal's reason. Other runs sharing that worker
   * reject with an AbortError (their calls would never be answered), and the next run starts a new one.
   */
  async run<T>(task: (api: Comlink.Remote<EncoderApi>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const gen = this.acquire();
    let onAbort: (() => void) | null = null;
    let onStopped: (() => void) | null = null;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          // Reject first: this run fails with its own reason, not with the worker's stop.
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
          this.stop(gen);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      const stopped = new Promise<never>((_, reject) => {
        onStopped = () => reject(gen.stopped.signal.reason);
        gen.stopped.signal.addEventListener('abort', onStopped, { once: true });
      });
      return await Promise.race([task(gen.api), aborted, stopped]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (onStopped) gen.stopped.signal.removeEventListener('abort', onStopped);
      this.release(gen);
    }
  }

  /** Terminates the worker now; runs still holding it reject with an AbortError. */
  terminate(): void {
    if (this.current) this.stop(this.current);
  }

  private stop(gen: Generation): void {
    if (this.current !== gen) return; // already stopped
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.current = null;
    gen.api[Comlink.releaseProxy]();
    gen.worker.terminate();
    gen.stopped.abort(new DOMException('The encoder worker was stopped', 'AbortError'));
  }

  private acquire(): Generation {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.current) {
      const worker = this.spawn();
      this.current = {
        worker,
        api: Comlink.wrap<EncoderApi>(worker),
        holders: 0,
        stopped: new AbortController(),
      };
    }
    this.current.holders++;
    return this.current;
  }

  private release(gen: Generation): void {
    // A run that outlived its worker (aborted or terminated) does not count against the next one.
    if (this.current !== gen) return;
    gen.holders--;
    if (gen.holders === 0) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stop(gen), IDLE_MS);
    }
  }
}

function defaultSpawn(): Worker {
  return new Worker(new URL('./encoder.worker.ts', import.meta.url), { type: 'module', name: 'encoder' });
}

/** The app's one encoder bridge. */
export const encoderBridge = new EncoderBridge();
