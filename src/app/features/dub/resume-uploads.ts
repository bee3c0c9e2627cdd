/**
 * Pending dub uploads are sent wherever the learner is, not only on the dub page: at app start (when
 * the browser is idle after the first render), when the browser comes back online, and after a login.
 * This module is in the entry bundle, so it stays small: it reads the token cookie and counts the
 * IndexedDB store with the raw API, and only when a logged-in learner has something pending does it
 * load the queue (dub-queue.ts, a dynamic import). The queue is a module singleton shared with the dub
 * page, so the same take is never sent twice from one page.
 *
 * The count covers every learner's takes (reading each take's owner would mean reading its wav): on a
 * kiosk where an earlier learner left takes, the queue is loaded and then sends only the takes of the
 * learner logged in now (upload-queue.ts).
 */
import { readToken } from '../../../api/token';
import { token } from '../../stores/account';

/** Where upload-store.ts (idb-keyval) keeps pending uploads; a test checks the two agree. */
export const UPLOADS_DB = 'dub-uploads';
export const UPLOADS_STORE = 'pending';

/**
 * How many uploads wait in IndexedDB, without idb-keyval and without creating the database when it
 * does not exist yet (a new database would lack the object store idb-keyval creates on upgrade).
 */
export function countPendingUploads(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<number> {
  if (!factory) return Promise.resolve(0); // no IndexedDB: the queue could not have stored anything
  return new Promise((resolve, reject) => {
    const request = factory.open(UPLOADS_DB);
    let created = false;
    request.onupgradeneeded = (e) => {
      // Only a database that does not exist yet is upgraded here: nothing is pending. Abort so it is
      // not created (an aborted first upgrade deletes the new database).
      if (e.oldVersion === 0) created = true;
      request.transaction?.abort();
    };
    request.onerror = (e) => {
      e.preventDefault();
      if (created) resolve(0);
      else reject(request.error ?? new Error(`cannot open IndexedDB ${UPLOADS_DB}`));
    };
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(UPLOADS_STORE)) {
        db.close();
        resolve(0);
        return;
      }
      try {
        const count = db.transaction(UPLOADS_STORE, 'readonly').objectStore(UPLOADS_STORE).count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => {
          db.close();
          reject(count.error ?? new Error(`cannot count ${UPLOADS_DB}/${UPLOADS_STORE}`));
        };
      } catch (err) {
        db.close();
        reject(err);
      }
    };
  });
}

export type ResumeOutcome = 'logged-out' | 'nothing-pending' | 'resumed' | 'failed';

export interface UploadResumerDeps {
  hasToken(): boolean;
  countPending(): Promise<number>;
  /** Loads the queue and sends what is stored (the dynamic import lives here). */
  resume(): Promise<unknown>;
  log?: (message: string, error: unknown) => void;
}

/**
 * One check: logged in? anything pending? then resume. Checks asked for while one runs share it
 * (an `online` event during the app-start check does not count or import twice).
 */
export function createUploadResumer(deps: UploadResumerDeps): () => Promise<ResumeOutcome> {
  const log = deps.log ?? ((message, error) => console.error(message, error));
  let running: Promise<ResumeOutcome> | null = null;
  const check = async (): Promise<ResumeOutcome> => {
    if (!deps.hasToken()) return 'logged-out';
    try {
      if ((await deps.countPending()) === 0) return 'nothing-pending';
      await deps.resume();
      return 'resumed';
    } catch (e) {
      log('[dub] cannot resume pending uploads', e);
      return 'failed';
    }
  };
  return () => {
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
}

export interface UploadResumerTriggers {
  /** Runs `f` once the browser is idle after the first render. */
  whenIdle?: (f: () => void) => void;
  /** Calls `f` after each login; returns a stop function. */
  onLogin?: (f: () => void) => () => void;
  /** Where `online` is heard (the window). */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

/** Checks once when idle, then on every `online` event and login. Returns a stop function. */
export function startUploadResumer(
  deps: UploadResumerDeps,
  triggers: UploadResumerTriggers = {},
): () => void {
  const check = createUploadResumer(deps);
  const run = () => void check();
  const whenIdle = triggers.whenIdle ?? idle;
  const target = triggers.target ?? window;
  const stopLogin = (triggers.onLogin ?? afterLogin)(run);
  let stopped = false;
  whenIdle(() => {
    if (!stopped) run();
  });
  target.addEventListener('online', run);
  return () => {
    stopped = true;
    stopLogin();
    target.removeEventListener('online', run);
  };
}

function idle(f: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 5000 });
  else setTimeout(f, 1500); // Safari has no requestIdleCallback
}

/** Fires when the token signal turns from none (or another token) to a token: a login. */
function afterLogin(f: () => void): () => void {
  let previous = token.peek();
  return token.subscribe((next) => {
    if (next !== null && next !== previous) f();
    previous = next;
  });
}

/** The app entry's call: resume pending uploads in the background for a logged-in learner. */
export function resumeUploadsInBackground(): () => void {
  return startUploadResumer({
    hasToken: () => readToken() !== null,
    countPending: () => countPendingUploads(),
    resume: () => import('./dub-queue').then((m) => m.resumePendingUploads()),
  });
}
