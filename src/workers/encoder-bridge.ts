/**
 * The page's only way to the encoder worker (squoosh worker-bridge pattern): the worker starts on
 * first use, a call can be aborted with an AbortSignal (the worker is terminated: a running
 * resample cannot be interrupted from outside), and it is terminated after IDLE_MS without work.
 */
import * as Comlink from 'comlink';
import type { EncoderApi } from './encoder-api';

const IDLE_MS = 10_000;

export class EncoderBridge {
  private worker: Worker | null = null;
  private api: Comlink.Remote<EncoderApi> | null = null;
  private holders = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly spawn: () => Worker = defaultSpawn) {}

  /** True while a worker exists (for the debug overlay and tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  /**
   * Runs `task` with the worker kept alive until it settles. If `signal` aborts first, the worker
   * is terminated and the promise rejects with the signal's reason.
   */
  async run<T>(task: (api: Comlink.Remote<EncoderApi>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const api = this.acquire();
    let onAbort: (() => void) | null = null;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          this.terminate();
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      return await Promise.race([task(api), aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      this.release();
    }
  }

  terminate(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = null;
    this.api = null;
    this.holders = 0;
  }

  private acquire(): Comlink.Remote<EncoderApi> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.api) {
      this.worker = this.spawn();
      this.api = Comlink.wrap<EncoderApi>(this.worker);
    }
    this.holders++;
    return this.api;
  }

  private release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders === 0 && this.worker) {
      this.idleTimer = setTimeout(() => this.terminate(), IDLE_MS);
    }
  }
}

function defaultSpawn(): Worker {
  return new Worker(new URL('./encoder.worker.ts', import.meta.url), { type: 'module', name: 'encoder' });
}

/** The app's one encoder bridge. */
export const encoderBridge = new EncoderBridge();
