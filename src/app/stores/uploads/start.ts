/**
 * The one owner of every trigger that sends pending uploads, wherever the learner is:
 * - app start, once the browser is idle after the first render;
 * - the browser coming back online (also ends any backoff wait);
 * - a login (the token turns to a new one; also ends a wait for login after a 1002);
 * - a learner change: a login or logout here (the account signals) or in another tab (its user info
 *   written to, or cleared from, localStorage), so the previous learner's sends stop at once;
 * - the app's queue being created by the dub screen.
 * The app entry loads this module once it has rendered (main.tsx), so it stays small: it reads the
 * token cookie and counts the IndexedDB store with the raw API, and loads the queue (app-queue.ts, a
 * dynamic import) only when a logged-in learner has something pending or a screen asks for it.
 */
import { effect, type ReadonlySignal, untracked } from '@preact/signals-react';
import { readToken } from '../../../api/token';
import { token, USER_INFO_KEY, userInfo } from '../account';
import { countPendingUploads } from './pending-count';
import { queueCreated, type TriggeredQueue, watchQueueCreated } from './queue-created';

export { queueCreated, type TriggeredQueue };

export type ResumeOutcome = 'logged-out' | 'nothing-pending' | 'resumed' | 'failed';

export interface UploadsDeps {
  hasToken(): boolean;
  countPending(): Promise<number>;
  /** The app's one queue (the dynamic import lives here). */
  load(): Promise<TriggeredQueue>;
  log?: (message: string, error: unknown) => void;
}

export interface UploadsTriggers {
  /** Runs `f` once the browser is idle after the first render. */
  whenIdle?: (f: () => void) => void;
  /** Where `online` and `storage` are heard (the window). */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Who is logged in (the account store). */
  account?: { token: ReadonlySignal<string | null>; userInfo: ReadonlySignal<unknown> };
}

const defaultDeps: UploadsDeps = {
  hasToken: () => readToken() !== null,
  countPending: () => countPendingUploads(),
  load: () => import('./app-queue').then((m) => m.uploadQueue()),
};

/** The queue, once someone has created it; every trigger reaches it from then on. */
let current: TriggeredQueue | null = null;
/** The running start()'s check, for a queue created after start. */
let checkNow: (() => void) | null = null;

// A queue created (by start's load or by a screen) is the one the triggers reach, and is checked.
current = watchQueueCreated((q) => {
  current = q;
  checkNow?.();
});

/**
 * One check: logged in? anything pending? then load the queue, end a wait for login and send what is
 * stored. Checks asked for while one runs share it (an `online` event during the app-start check does
 * not count or load twice).
 */
export function createUploadResumer(deps: UploadsDeps): () => Promise<ResumeOutcome> {
  const log = deps.log ?? ((message, error) => console.error(message, error));
  let running: Promise<ResumeOutcome> | null = null;
  const check = async (): Promise<ResumeOutcome> => {
    if (!deps.hasToken()) return 'logged-out';
    try {
      if ((await deps.countPending()) === 0) return 'nothing-pending';
      const q = await deps.load();
      current = q;
      q.resumeAfterLogin(); // only with a token: a new login after a 1002, if there was one
      await q.resume();
      return 'resumed';
    } catch (e) {
      log('[uploads] cannot resume pending uploads', e);
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

/** Starts every trigger (the app entry calls it once). Returns a stop function. */
export function start(deps: UploadsDeps = defaultDeps, triggers: UploadsTriggers = {}): () => void {
  const check = createUploadResumer(deps);
  const run = () => void check();
  const whenIdle = triggers.whenIdle ?? idle;
  const target = triggers.target ?? window;
  const account = triggers.account ?? { token, userInfo };
  let stopped = false;

  const onOnline = () => {
    current?.kick();
    run();
  };
  const onStorage = (e: Event) => {
    const key = (e as StorageEvent).key;
    if (key === USER_INFO_KEY || key === null) current?.learnerChanged();
  };
  let previous = account.token.peek();
  const stopAccount = effect(() => {
    const next = account.token.value;
    void account.userInfo.value;
    // The queue's own signals must not re-run this effect.
    untracked(() => {
      current?.learnerChanged();
      if (next !== null && next !== previous) run(); // a login
      previous = next;
    });
  });
  target.addEventListener('online', onOnline);
  target.addEventListener('storage', onStorage);
  checkNow = run;
  whenIdle(() => {
    if (!stopped) run();
  });
  return () => {
    stopped = true;
    if (checkNow === run) checkNow = null;
    stopAccount();
    target.removeEventListener('online', onOnline);
    target.removeEventListener('storage', onStorage);
  };
}

function idle(f: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 5000 });
  else setTimeout(f, 1500); // Safari has no requestIdleCallback
}
