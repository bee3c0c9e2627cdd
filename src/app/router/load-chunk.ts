/** A chunk that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

export type ChunkFailure = 'timeout' | 'missing';

/** Raised when a route's script or style chunk fails to load: names the chunk and the reason. */
export class ChunkLoadError extends Error {
  readonly code = 'CHUNK_LOAD';
  constructor(
    readonly chunk: string,
    readonly reason: ChunkFailure,
    cause?: unknown,
  ) {
    super(`Chunk "${chunk}" failed to load (${reason})`, { cause });
    this.name = 'ChunkLoadError';
  }
}

export const isChunkLoadError = (e: unknown): e is ChunkLoadError => e instanceof ChunkLoadError;

/**
 * Runs a dynamic import with a time limit (CHUNK_TIMEOUT_MS). A rejected import (404, network drop, a failed CSS
 * preload that Vite turns into a rejection) becomes `missing`; no answer in time becomes `timeout`.
 */
export function loadChunk<M>(
  chunk: string,
  importer: () => Promise<M>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): Promise<M> {
  return new Promise<M>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk, 'timeout')), timeoutMs);
    let pending: Promise<M>;
    try {
      pending = importer();
    } catch (e) {
      pending = Promise.reject(e);
    }
    pending.then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(chunk, 'missing', e));
      },
    );
  });
}
