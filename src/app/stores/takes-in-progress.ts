/**
 * Takes being recorded right now (the dub session registers each one). A session that expires during
 * a take must not cut it off: the expiry handling (use-session-expiry.ts) waits for them to end, so
 * their windows reach the upload queue's IndexedDB store under the learner who recorded them and are
 * sent after the next login (features/uploads/upload-queue.ts).
 */
const running = new Set<Promise<unknown>>();

/** Registers a take; returns it unchanged. */
export function trackTake<T>(take: Promise<T>): Promise<T> {
  running.add(take);
  const done = () => running.delete(take);
  take.then(done, done);
  return take;
}

/** Whether a take is being recorded. */
export function takeInProgress(): boolean {
  return running.size > 0;
}

/** Resolves when every take running now has ended (or after `capMs`, whichever is first). */
export function takesEnded(capMs = 5 * 60_000): Promise<void> {
  if (running.size === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, capMs);
    void Promise.allSettled([...running]).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
