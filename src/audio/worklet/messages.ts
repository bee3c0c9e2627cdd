/**
 * Tagged-union messages between the capture worklet, the encoder worker and the page (see
 * docs/architecture.md, Recording pipeline).
 * Types only: shared by code that runs in three different global scopes.
 */

export const CAPTURE_PROCESSOR = 'capture-processor';

/** Page → worklet (node.port). */
export type PageToWorklet = { type: 'connect'; port: MessagePort } | { type: 'start' } | { type: 'stop' };

/** Worklet → page (node.port): tiny and throttled to LEVEL_MESSAGE_HZ. */
export type WorkletToPage =
  | { type: 'started'; firstFrame: number; sampleRate: number }
  | { type: 'level'; rms: number; peak: number; frames: number; dropped: number; skipped: number }
  | { type: 'stopped'; frames: number; dropped: number; skipped: number };

/** Worklet → worker (transferred MessagePort). `buffer` is transferred and comes back as `recycle`. */
export type WorkletToWorker =
  | { type: 'pcm'; buffer: ArrayBuffer; frames: number; startFrame: number; sampleRate: number }
  | { type: 'end'; frame: number; dropped: number };

/** Worker → worklet: a PCM buffer handed back for reuse (the worklet never allocates while recording). */
export type WorkerToWorklet = { type: 'recycle'; buffer: ArrayBuffer };
