/**
 * One sender per pending take across tabs. Every tab of the app resumes the same IndexedDB store, so
 * two tabs would both send a take and both show its score (the service stores it once, by takeId).
 * A Web Lock per upload, asked for with `ifAvailable`, lets a tab skip a take another tab is sending.
 * Without the Web Locks API (Safari before 15.4, older WebViews) every tab sends, as before.
 */

/** The part of the Web Locks API the queue uses (`navigator.locks`, or a stand-in in tests). */
export interface UploadLocks {
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/** What `withUploadLock` answers when another tab holds the upload's lock. */
export const HELD_ELSEWHERE = Symbol('held by another tab');

export const uploadLockName = (uploadId: string) => `dub-upload:${uploadId}`;

/** Runs `f` holding the upload's lock, or answers HELD_ELSEWHERE without waiting for it. */
export function withUploadLock<T>(
  locks: UploadLocks | null,
  uploadId: string,
  f: () => Promise<T>,
): Promise<T | typeof HELD_ELSEWHERE> {
  if (!locks) return f();
  return locks.request<T | typeof HELD_ELSEWHERE>(uploadLockName(uploadId), { ifAvailable: true }, (lock) =>
    lock ? f() : Promise.resolve(HELD_ELSEWHERE),
  );
}

/** The browser's lock manager, or null where there is none. */
export function browserLocks(): UploadLocks | null {
  return (typeof navigator !== 'undefined' && navigator.locks) || null;
}
