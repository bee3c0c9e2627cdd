/**
 * Where pending uploads live between page loads: IndexedDB via idb-keyval, one key per upload.
 * A take recorded offline, or while the AI service is down, sits here until it is sent; nothing is
 * deleted before the service has answered with a score.
 */
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';

export interface PendingUpload {
  /** Idempotency key sent as `takeId`: the service stores a retried upload once. */
  uploadId: string;
  takeId: string;
  subtitlesId: string;
  filmId: string;
  attempt: 1 | 2;
  /** The 16 kHz wav bytes (an ArrayBuffer: it clones into IndexedDB the same in every engine). */
  wav: ArrayBuffer;
  createdAt: number;
  tries: number;
  /** Epoch ms before which it is not retried. */
  notBefore: number;
  lastError?: string;
  /** Gave up on it (a rejection retrying cannot fix); shown as failed with a retry button. */
  failed?: boolean;
}

export interface UploadStore {
  put(item: PendingUpload): Promise<void>;
  remove(uploadId: string): Promise<void>;
  all(): Promise<PendingUpload[]>;
}

let defaultStore: UseStore | null = null;

/** The queue's IndexedDB store (database `dub-uploads`, object store `pending`). */
export function idbUploadStore(store?: UseStore): UploadStore {
  const s = () => {
    if (store) return store;
    defaultStore ??= createStore('dub-uploads', 'pending');
    return defaultStore;
  };
  return {
    put: (item) => set(item.uploadId, item, s()),
    remove: (uploadId) => del(uploadId, s()),
    all: async () =>
      (await entries<string, PendingUpload>(s())).map(([, v]) => v).sort((a, b) => a.createdAt - b.createdAt),
  };
}
