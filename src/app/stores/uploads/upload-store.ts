/**
 * Where pending uploads live between page loads: IndexedDB via idb-keyval, one key per upload.
 * A take recorded offline, or while the AI service is down, sits here until it is sent; nothing is
 * deleted before the service has answered with a score.
 */
import { createStore, del, entries, promisifyRequest, set, type UseStore } from 'idb-keyval';
import { UPLOADS_DB, UPLOADS_STORE } from './pending-count';

export interface PendingUpload {
  /** This upload's id, sent as the wire field `takeId`: the service stores a retried upload once. */
  uploadId: string;
  /** The scene take (or line retake) the window was cut from; several uploads share it. */
  sceneTakeId: string;
  subtitlesId: string;
  filmId: string;
  attempt: 1 | 2;
  /**
   * The training run the dub screen showed when the take was made, so the take joins that run
   * (docs/api.md, "Runs"); absent: the service's rule (the learner's latest run of the film).
   */
  runId?: string;
  /** The 16 kHz wav bytes (an ArrayBuffer: it clones into IndexedDB the same in every engine). */
  wav: ArrayBuffer;
  createdAt: number;
  tries: number;
  /** Epoch ms before which it is not retried. */
  notBefore: number;
  lastError?: string;
  /** Gave up on it (a rejection retrying cannot fix); shown as failed with a retry button. */
  failed?: boolean;
  /** The learner who recorded it (learner.ts: `u:<user id>`, or a hash of the session token; never the token). */
  owner: string;
}

export interface UploadStore {
  put(item: PendingUpload): Promise<void>;
  remove(uploadId: string): Promise<void>;
  all(): Promise<PendingUpload[]>;
  /** Whether it is still stored (another tab may have sent it and removed it). */
  has(uploadId: string): Promise<boolean>;
}

let defaultStore: UseStore | null = null;

/** The queue's IndexedDB store (database UPLOADS_DB, object store UPLOADS_STORE). */
export function idbUploadStore(store?: UseStore): UploadStore {
  const s = () => {
    if (store) return store;
    defaultStore ??= createStore(UPLOADS_DB, UPLOADS_STORE);
    return defaultStore;
  };
  return {
    put: (item) => set(item.uploadId, item, s()),
    remove: (uploadId) => del(uploadId, s()),
    all: async () =>
      (await entries<string, PendingUpload>(s())).map(([, v]) => v).sort((a, b) => a.createdAt - b.createdAt),
    has: (uploadId) => s()('readonly', async (os) => (await promisifyRequest(os.count(uploadId))) > 0),
  };
}
