/**
 * Where pending uploads live between page loads: IndexedDB via idb-keyval, one key per upload.
 * A take recorded offline, or while the AI service is down, sits here until it is sent; nothing is
 * deleted before the service has answered with a score.
 */
import { createStore, del, entries, promisifyRequest, set, type UseStore } from 'idb-keyval';

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
  /**
   * The learner who recorded it (learner.ts: `u:<user id>`, or a hash of the session token; never the
   * token). Missing on takes stored before uploads had owners: see UploadQueue.resume.
   */
  owner?: string;
}

export interface UploadStore {
  put(item: PendingUpload): Promise<void>;
  remove(uploadId: string): Promise<void>;
  all(): Promise<PendingUpload[]>;
  /** Whether it is still stored (another tab may have sent it and removed it). */
  has(uploadId: string): Promise<boolean>;
  /**
   * Gives an upload stored without an owner to `owner`, in one transaction (so it cannot bring back
   * an upload another tab removed meanwhile). Answers the owner it has afterwards, or undefined when
   * it is gone.
   */
  claim(uploadId: string, owner: string): Promise<string | undefined>;
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
    has: (uploadId) => s()('readonly', async (os) => (await promisifyRequest(os.count(uploadId))) > 0),
    claim: (uploadId, owner) =>
      s()('readwrite', (os) => {
        let result: string | undefined;
        const read = os.get(uploadId) as IDBRequest<PendingUpload | undefined>;
        read.onsuccess = () => {
          const item = read.result;
          if (!item) return;
          result = item.owner ?? owner;
          if (item.owner === undefined) os.put({ ...item, owner }, uploadId);
        };
        return promisifyRequest(os.transaction).then(() => result);
      }),
  };
}
