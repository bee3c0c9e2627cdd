import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpeechScore } from '../../../src/api/contract';
import { signal } from '@preact/signals-react';
import type { TriggeredQueue, UploadsDeps, UploadsTriggers } from '../../../src/app/stores/uploads/start';
import type { PendingUpload, UploadStore } from '../../../src/app/stores/uploads/upload-store';

// The AI service call is the only stand-in: queue, IndexedDB store (fake-indexeddb), prpt store and
// sessionStorage are the real ones.
vi.mock('../../../src/api/calls', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/calls')>()),
  discernSpeechEmotion: vi.fn(),
}));

/** A take the queue stored for the learner of `token` (a login answer without user info). */
const pending = async (uploadId: string, subtitlesId: string, token: string): Promise<PendingUpload> => ({
  owner: (await import('../../../src/app/stores/uploads/learner')).learnerId(token, null),
  uploadId,
  sceneTakeId: 'take-1',
  subtitlesId,
  filmId: 'film-1',
  attempt: 1,
  wav: new Uint8Array([82, 73, 70, 70]).buffer,
  createdAt: 1,
  tries: 0,
  notBefore: 0,
});
const score = (overall: number) =>
  ({ overall, audioUrl: `/media/takes/${overall}.wav` }) as unknown as SpeechScore;

/** One real turn of the event loop (fake-indexeddb answers on later turns). */
const turn = () => new Promise<void>((r) => setTimeout(r, 0));
/** Waits for `check` to hold (the first dynamic import of the queue takes a while to transform). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('condition not reached yet');
    },
    { timeout: 4000, interval: 5 },
  );
}

/** The prpt scores a new page load reads back from sessionStorage (whatever keys the store uses). */
async function scoresAfterReload() {
  window.dispatchEvent(new Event('pagehide')); // the reload: the page goes away
  vi.resetModules();
  const { subTitlesScores } = await import('../../../src/app/stores/takes/sub-titles-scores');
  return subTitlesScores.value;
}

beforeEach(() => {
  // A fresh IndexedDB and fresh modules: each test is a new page load over an empty browser profile.
  globalThis.indexedDB = new IDBFactory();
  vi.resetModules();
});
afterEach(async () => {
  const { removeToken } = await import('../../../src/api/token');
  removeToken();
  vi.unstubAllGlobals();
});

describe('countPendingUploads', () => {
  it('finds nothing and creates no database before the dub page stored a take', async () => {
    const { countPendingUploads, UPLOADS_DB } = await import('../../../src/app/stores/uploads/pending-count');
    expect(await countPendingUploads()).toBe(0);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(UPLOADS_DB);

    // The queue's store still works afterwards (a store-less database would break idb-keyval).
    const { idbUploadStore } = await import('../../../src/app/stores/uploads/upload-store');
    await idbUploadStore().put(await pending('u1', 's1', 'tok'));
    expect(await countPendingUploads()).toBe(1);
  });

  it('counts exactly what the queue stored, in the same database and object store', async () => {
    const { countPendingUploads } = await import('../../../src/app/stores/uploads/pending-count');
    const { idbUploadStore } = await import('../../../src/app/stores/uploads/upload-store');
    const store = idbUploadStore();
    await store.put(await pending('u1', 's1', 'tok'));
    await store.put(await pending('u2', 's2', 'tok'));
    expect(await countPendingUploads()).toBe(2);
    await store.remove('u1');
    expect(await countPendingUploads()).toBe(1);
  });

  it('finds nothing in a database of that name without the object store', async () => {
    const { countPendingUploads, UPLOADS_DB } = await import('../../../src/app/stores/uploads/pending-count');
    await new Promise<void>((resolve, reject) => {
      const r = indexedDB.open(UPLOADS_DB, 1);
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
      r.onerror = () => reject(r.error);
    });
    expect(await countPendingUploads()).toBe(0);
  });

  it('without IndexedDB there is nothing to resume', async () => {
    const { countPendingUploads } = await import('../../../src/app/stores/uploads/pending-count');
    expect(await countPendingUploads(undefined as unknown as IDBFactory)).toBe(0);
  });
});

describe('start (when to load the queue)', () => {
  function harness(state: { token: boolean; pending: number }) {
    const queue = {
      resume: vi.fn(async () => []),
      resumeAfterLogin: vi.fn(),
      kick: vi.fn(),
      learnerChanged: vi.fn(),
    } satisfies TriggeredQueue;
    const deps = {
      hasToken: vi.fn(() => state.token),
      countPending: vi.fn(async () => state.pending),
      load: vi.fn(async () => queue),
      log: vi.fn(),
    } satisfies UploadsDeps;
    let idle: () => void = () => {
      throw new Error('whenIdle was not asked');
    };
    const token = signal<string | null>(null);
    const target = new EventTarget();
    const triggers: UploadsTriggers = {
      whenIdle: (f) => {
        idle = f;
      },
      account: { token, userInfo: signal(null) },
      target,
    };
    let logins = 0;
    return {
      deps,
      queue,
      /** The queue's resume: what every trigger ends in. */
      resume: queue.resume,
      triggers,
      idle: () => idle(),
      login: () => {
        token.value = `tok-${++logins}`;
      },
      logout: () => {
        token.value = null;
      },
      online: () => target.dispatchEvent(new Event('online')),
      storage: (key: string | null) => target.dispatchEvent(Object.assign(new Event('storage'), { key })),
    };
  }

  it('waits for idle, then loads the queue only for a logged-in learner with something pending', async () => {
    const { start } = await import('../../../src/app/stores/uploads/start');
    const state = { token: true, pending: 2 };
    const h = harness(state);
    start(h.deps, h.triggers);
    expect(h.deps.hasToken).not.toHaveBeenCalled(); // nothing before the first render has settled
    h.idle();
    await until(() => h.resume.mock.calls.length === 1);
    expect(h.deps.countPending).toHaveBeenCalledTimes(1);
  });

  it('a logged-out learner: IndexedDB is not even opened and the queue is not loaded', async () => {
    const { start } = await import('../../../src/app/stores/uploads/start');
    const h = harness({ token: false, pending: 3 });
    start(h.deps, h.triggers);
    h.idle();
    await turn();
    h.online();
    await turn();
    expect(h.deps.hasToken).toHaveBeenCalledTimes(2);
    expect(h.deps.countPending).not.toHaveBeenCalled();
    expect(h.resume).not.toHaveBeenCalled();
  });

  it('nothing pending: the queue is not loaded', async () => {
    const { createUploadResumer } = await import('../../../src/app/stores/uploads/start');
    const h = harness({ token: true, pending: 0 });
    await expect(createUploadResumer(h.deps)()).resolves.toBe('nothing-pending');
    expect(h.resume).not.toHaveBeenCalled();
  });

  it('checks again when the browser comes back online and after a login, until stopped', async () => {
    const { start } = await import('../../../src/app/stores/uploads/start');
    const state = { token: false, pending: 1 };
    const h = harness(state);
    const stop = start(h.deps, h.triggers);
    h.idle();
    await turn();
    expect(h.resume).not.toHaveBeenCalled();

    state.token = true;
    h.login();
    await until(() => h.resume.mock.calls.length === 1);
    h.online();
    await until(() => h.resume.mock.calls.length === 2);

    stop();
    h.online();
    h.login();
    await turn();
    expect(h.resume).toHaveBeenCalledTimes(2);
  });

  it('an online event during a running check joins it instead of loading twice', async () => {
    const { start } = await import('../../../src/app/stores/uploads/start');
    const h = harness({ token: true, pending: 1 });
    let answer: (n: number) => void = () => {};
    h.deps.countPending.mockImplementationOnce(
      () =>
        new Promise<number>((r) => {
          answer = r;
        }),
    );
    start(h.deps, h.triggers);
    h.idle();
    h.online();
    h.online();
    answer(1);
    await until(() => h.resume.mock.calls.length === 1);
    await turn();
    expect(h.deps.countPending).toHaveBeenCalledTimes(1);
    expect(h.resume).toHaveBeenCalledTimes(1);
  });

  it('a failing IndexedDB is logged and loads nothing', async () => {
    const { createUploadResumer } = await import('../../../src/app/stores/uploads/start');
    const h = harness({ token: true, pending: 1 });
    const error = new DOMException('blocked by policy', 'InvalidStateError');
    h.deps.countPending.mockRejectedValueOnce(error);
    await expect(createUploadResumer(h.deps)()).resolves.toBe('failed');
    expect(h.deps.log).toHaveBeenCalledWith('[uploads] cannot resume pending uploads', error);
    expect(h.resume).not.toHaveBeenCalled();
  });

  it('once the queue is loaded: online ends its backoff wait; a login, a logout, another tab reach it at once', async () => {
    const { start } = await import('../../../src/app/stores/uploads/start');
    const { USER_INFO_KEY } = await import('../../../src/app/stores/account');
    const h = harness({ token: true, pending: 1 });
    const stop = start(h.deps, h.triggers);
    h.idle();
    await until(() => h.resume.mock.calls.length === 1);
    expect(h.queue.resumeAfterLogin).toHaveBeenCalledTimes(1);

    h.online();
    expect(h.queue.kick).toHaveBeenCalledTimes(1);
    const changes = h.queue.learnerChanged.mock.calls.length;
    h.login();
    h.logout();
    h.storage(USER_INFO_KEY); // another tab logged in or out
    h.storage('app.lang'); // not about the learner
    expect(h.queue.learnerChanged).toHaveBeenCalledTimes(changes + 3);
    stop();
    h.login();
    expect(h.queue.learnerChanged).toHaveBeenCalledTimes(changes + 3);
  });

  it('a queue a screen creates before any check is resumed at once, then reached by every trigger', async () => {
    const { start, queueCreated } = await import('../../../src/app/stores/uploads/start');
    const h = harness({ token: true, pending: 1 });
    const stop = start(h.deps, h.triggers); // idle has not come yet
    queueCreated(h.queue); // the dub screen opened first
    await until(() => h.resume.mock.calls.length === 1);
    h.online();
    expect(h.queue.kick).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('pending uploads sent away from the dub page', () => {
  async function loadApp() {
    const calls = await import('../../../src/api/calls');
    const send = vi.mocked(calls.discernSpeechEmotion);
    send.mockReset(); // the mocked module outlives vi.resetModules
    const { writeToken } = await import('../../../src/api/token');
    const { idbUploadStore } = await import('../../../src/app/stores/uploads/upload-store');
    return { send, writeToken, store: idbUploadStore() };
  }

  it('at app start, a take left by an earlier page is scored into prpt.subTitlesScores as on the dub page', async () => {
    const { send, writeToken, store } = await loadApp();
    await store.put(await pending('u1', 's1', 'tok-1'));
    writeToken('tok-1');
    send.mockResolvedValue(score(83));
    vi.stubGlobal('requestIdleCallback', (f: () => void) => setTimeout(f, 0));

    const { start } = await import('../../../src/app/stores/uploads/start');
    const stop = start();
    await until(async () => (await store.all()).length === 0);
    stop();

    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0]).toMatchObject({
      subtitlesId: 's1',
      filmId: 'film-1',
      attempt: 1,
      takeId: 'u1',
    });
    const { subTitlesScores } = await import('../../../src/app/stores/takes/sub-titles-scores');
    const expected = { subtitlesId: 's1', firstUserAudioJson: JSON.stringify(score(83)), firstSource: '' };
    expect(subTitlesScores.value.s1).toEqual(expected);
    const { lineStates } = await import('../../../src/app/stores/uploads/line-state');
    expect(lineStates.value.s1).toMatchObject({ stage: 'scored', overall: 83, attempt: 1 });
    expect((await scoresAfterReload()).s1).toEqual(expected); // in sessionStorage too
  });

  it('logged out at app start: nothing is sent until the learner logs in', async () => {
    const { send, store } = await loadApp();
    await store.put(await pending('u1', 's1', 'tok-2'));
    send.mockResolvedValue(score(70));
    vi.stubGlobal('requestIdleCallback', (f: () => void) => setTimeout(f, 0));
    const { start } = await import('../../../src/app/stores/uploads/start');
    const stop = start();
    for (let i = 0; i < 5; i++) await turn();
    expect(send).not.toHaveBeenCalled();

    const { completeLogin } = await import('../../../src/app/stores/account');
    completeLogin('tok-2', null);
    await until(async () => (await store.all()).length === 0);
    stop();
    expect(send).toHaveBeenCalledTimes(1);
    expect((await scoresAfterReload()).s1?.firstUserAudioJson).toBe(JSON.stringify(score(70)));
  });

  it('the app start, the dub screen and an online event share one queue: each take is sent once', async () => {
    const { send, writeToken, store } = await loadApp();
    await store.put(await pending('u1', 's1', 'tok-3'));
    await store.put(await pending('u2', 's2', 'tok-3'));
    writeToken('tok-3');
    const answers: ((s: SpeechScore) => void)[] = [];
    send.mockImplementation(() => new Promise<SpeechScore>((r) => answers.push(r)));

    const { start } = await import('../../../src/app/stores/uploads/start');
    const stop = start(undefined, { whenIdle: (f) => f() }); // the app-start check runs now
    // The dub screen opens meanwhile and takes the queue.
    const { uploadQueue } = await import('../../../src/app/stores/uploads/app-queue');
    uploadQueue();
    window.dispatchEvent(new Event('online'));
    await until(() => answers.length === 2);
    for (let i = 0; i < 5; i++) await turn();
    expect(send.mock.calls.map(([u]) => (u as { takeId: string }).takeId).sort()).toEqual(['u1', 'u2']);

    answers[0](score(60));
    answers[1](score(61));
    await until(async () => (await store.all()).length === 0);
    window.dispatchEvent(new Event('online')); // a later trigger finds nothing to send
    for (let i = 0; i < 5; i++) await turn();
    stop();
    expect(send).toHaveBeenCalledTimes(2);
    const saved = await scoresAfterReload();
    expect(Object.keys(saved).sort()).toEqual(['s1', 's2']);
    expect(saved.s1.secondUserAudioJson).toBeUndefined(); // one score per take, not two
  });
});

describe('UploadQueue.resume racing a finished upload', () => {
  it('a resume that read the store before a take was scored does not send that take again', async () => {
    const { UploadQueue } = await import('../../../src/app/stores/uploads/upload-queue');
    const rows = new Map<string, PendingUpload>([
      ['u1', { ...(await pending('u1', 's1', 'tok')), owner: 'u:learner-1' }],
    ]);
    let hold: Promise<void> | null = null;
    const store: UploadStore = {
      put: async (item) => void rows.set(item.uploadId, { ...item }),
      remove: async (id) => void rows.delete(id),
      all: async () => {
        const snapshot = [...rows.values()];
        if (hold) await hold; // the read happened; its answer comes late
        return snapshot;
      },
      has: async (id) => rows.has(id),
    };
    const answers: ((s: SpeechScore) => void)[] = [];
    const scored: string[] = [];
    const q = new UploadQueue({
      store,
      send: () => new Promise<SpeechScore>((r) => answers.push(r)),
      onScored: (item) => scored.push(item.uploadId),
      onState: () => {},
      learner: () => 'u:learner-1',
    });
    await q.resume(); // the app start
    expect(answers).toHaveLength(1);

    let release = () => {};
    hold = new Promise<void>((r) => {
      release = r;
    });
    const late = q.resume(); // the dub page opens; its read sees u1 still stored
    answers[0](score(90));
    await until(() => scored.length === 1 && rows.size === 0);
    release();
    await late;
    await turn();
    expect(answers).toHaveLength(1);
    expect(q.size).toBe(0);
    q.dispose();
  });
});
