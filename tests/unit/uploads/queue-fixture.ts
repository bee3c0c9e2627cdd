import { createStore } from 'idb-keyval';
import type { SpeechScore } from '../../../src/api/contract';
import { ApiError } from '../../../src/api/errors';
import type { LineState } from '../../../src/app/stores/uploads/line-state';
import {
  type NewUpload,
  UploadQueue,
  type UploadQueueDeps,
} from '../../../src/app/stores/uploads/upload-queue';
import type { UploadLocks } from '../../../src/app/stores/uploads/upload-locks';
import {
  idbUploadStore,
  type PendingUpload,
  type UploadStore,
} from '../../../src/app/stores/uploads/upload-store';

/**
 * A controllable AI service: each call waits for the test to answer it, and an abort rejects it the way
 * the request wrapper does. `learner` is who the token belonged to when the request went out.
 */
export function fakeService(learnerNow: () => string | null = () => null) {
  const calls: {
    item: PendingUpload;
    learner: string | null;
    signal: AbortSignal;
    resolve: (s: SpeechScore) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const send: UploadQueueDeps['send'] = (item, _progress, signal) =>
    new Promise<SpeechScore>((resolve, reject) => {
      calls.push({ item, learner: learnerNow(), signal, resolve, reject });
      signal.addEventListener('abort', () =>
        reject(new ApiError({ code: -2, msg: 'aborted', reason: 'aborted' })),
      );
    });
  return { calls, send };
}

export const score = (item: PendingUpload) =>
  ({ overall: 77, subtitlesId: item.subtitlesId, attempt: item.attempt }) as SpeechScore;

export function upload(id: string, subtitlesId = 's1'): NewUpload {
  return {
    uploadId: id,
    sceneTakeId: 'take-1',
    subtitlesId,
    filmId: 'film-1',
    attempt: 1,
    wav: new Uint8Array([82, 73, 70, 70]).buffer,
  };
}

/** An upload as the queue stored it for `owner`. */
export function stored(id: string, subtitlesId: string, owner: string): PendingUpload {
  return { ...upload(id, subtitlesId), createdAt: 1, tries: 0, notBefore: 0, owner };
}

export function testStore(name: string) {
  return idbUploadStore(createStore(name, 'pending'));
}

/** Lets IndexedDB (fake-indexeddb answers on later turns) and the queue's continuations settle. */
export async function flush(turns = 5) {
  for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 0));
}

/** What a queue told the page: [subtitlesId, state] in order, and the uploads it scored. */
export function recorder() {
  const states: [string, LineState][] = [];
  const scored: PendingUpload[] = [];
  return {
    states,
    scored,
    onScored: (item: PendingUpload) => void scored.push(item),
    onState: (item: PendingUpload, s: LineState) => void states.push([item.subtitlesId, s]),
    /** The last state reported for a line. */
    last: (subtitlesId: string) => states.filter(([id]) => id === subtitlesId).at(-1)?.[1],
  };
}

/**
 * The Web Locks semantics the queue relies on, shared by the queues of one test like by the tabs of a
 * browser: a lock is held while its callback runs; `ifAvailable` gets null instead of waiting.
 */
export class TestLocks implements UploadLocks {
  readonly held = new Set<string>();
  readonly skipped: string[] = [];
  async request<T>(name: string, _options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T>) {
    if (this.held.has(name)) {
      this.skipped.push(name);
      return callback(null);
    }
    this.held.add(name);
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      this.held.delete(name);
    }
  }
}

export function disposeAll(queues: UploadQueue[]) {
  for (const q of queues.splice(0)) q.dispose();
}

/**
 * A queue as one tab of the app runs it: its own fake service and page over `store`, sending as
 * `learner()` (also the learner the service sees), added to `queues` for disposal.
 */
export function queueOver(
  queues: UploadQueue[],
  store: UploadStore,
  learner: () => string | null,
  options: { locks: UploadLocks | null; now?: () => number },
) {
  const service = fakeService(learner);
  const page = recorder();
  const q = new UploadQueue({
    store,
    send: service.send,
    onScored: page.onScored,
    onState: page.onState,
    learner,
    locks: options.locks,
    now: options.now,
    random: () => 0.5,
  });
  queues.push(q);
  return { q, service, page };
}
