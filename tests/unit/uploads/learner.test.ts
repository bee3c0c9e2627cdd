import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpeechScore, UserInfo } from '../../../src/api/contract';

// The AI service call is the only stand-in: the account store, the cookie, the queue and its
// IndexedDB store (fake-indexeddb) are the real ones.
vi.mock('../../../src/api/calls', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/api/calls')>()),
  discernSpeechEmotion: vi.fn(),
}));

const info = (id: string, token: string): UserInfo => ({
  id,
  account: id,
  nickname: id,
  token,
  expiresIn: 604_800,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  vi.resetModules();
});
/** Queues and triggers a test started (each module reset makes new app-wide ones). */
const opened: { dispose(): void }[] = [];
afterEach(async () => {
  for (const q of opened.splice(0)) q.dispose();
  const { removeToken } = await import('../../../src/api/token');
  removeToken();
});

describe('currentLearner', () => {
  it('is the user id saved with the token the cookie holds', async () => {
    const { currentLearner } = await import('../../../src/app/stores/uploads/learner');
    const { completeLogin, resetAccount } = await import('../../../src/app/stores/account');
    expect(currentLearner()).toBeNull();
    completeLogin('tok-anna', info('anna', 'tok-anna'));
    expect(currentLearner()).toBe('u:anna');
    resetAccount();
    expect(currentLearner()).toBeNull();
  });

  it("follows the cookie when another tab logged in as someone else (this tab's signals are stale)", async () => {
    const { currentLearner } = await import('../../../src/app/stores/uploads/learner');
    const { completeLogin, USER_INFO_KEY } = await import('../../../src/app/stores/account');
    const { writeToken } = await import('../../../src/api/token');
    completeLogin('tok-anna', info('anna', 'tok-anna'));
    // What the other tab's completeLogin leaves behind: the shared cookie and localStorage.
    writeToken('tok-ben');
    localStorage.setItem(USER_INFO_KEY, JSON.stringify(info('ben', 'tok-ben')));
    expect(currentLearner()).toBe('u:ben');
  });

  it('without user info for the token, names the session by a hash that does not contain the token', async () => {
    const { currentLearner, learnerId } = await import('../../../src/app/stores/uploads/learner');
    const { completeLogin } = await import('../../../src/app/stores/account');
    const token = 'Zm9vYmFyYmF6cXV4LXJhbmRvbS10b2tlbi0zMi1ieXRlcw';
    completeLogin(token, null);
    const id = currentLearner();
    expect(id).toMatch(/^t:[0-9a-z]+$/);
    expect(id).not.toContain(token.slice(0, 8));
    expect(learnerId(token, null)).toBe(id); // the same session, the same learner
    expect(learnerId(`${token}x`, null)).not.toBe(id);
    expect(learnerId(token, { id: 'anna', token: 'another' })).toBe(id); // info of another token
  });
});

describe('the app queue and the account store', () => {
  async function app() {
    const calls = await import('../../../src/api/calls');
    const send = vi.mocked(calls.discernSpeechEmotion);
    send.mockReset();
    const { readToken, writeToken } = await import('../../../src/api/token');
    /** Each request as the wrapper would send it: the take and the cookie's token at that moment. */
    const sent: {
      takeId: string;
      token: string | null;
      signal: AbortSignal;
      answer: (s: SpeechScore) => void;
    }[] = [];
    send.mockImplementation(
      (data, opts) =>
        new Promise<SpeechScore>((resolve, reject) => {
          const signal = opts?.signal as AbortSignal;
          sent.push({
            takeId: (data as { takeId: string }).takeId,
            token: readToken(),
            signal,
            answer: resolve,
          });
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const account = await import('../../../src/app/stores/account');
    const { uploadQueue } = await import('../../../src/app/stores/uploads/app-queue');
    // The app entry's start(): the learner watch and `online` reach the queue through it.
    const { start } = await import('../../../src/app/stores/uploads/start');
    opened.push({ dispose: start(undefined, { whenIdle: () => {} }) });
    const { idbUploadStore } = await import('../../../src/app/stores/uploads/upload-store');
    const { lineStates } = await import('../../../src/app/stores/uploads/line-state');
    const queue = uploadQueue();
    opened.push(queue);
    return { sent, account, writeToken, queue, store: idbUploadStore(), lineStates };
  }
  const take = (uploadId: string, subtitlesId: string) => ({
    uploadId,
    sceneTakeId: 't',
    subtitlesId,
    filmId: 'film-1',
    attempt: 1 as const,
    wav: new ArrayBuffer(44),
  });
  async function until(check: () => boolean | Promise<boolean>) {
    await vi.waitFor(
      async () => {
        if (!(await check())) throw new Error('not yet');
      },
      { timeout: 4000, interval: 5 },
    );
  }
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
  };

  it("logout then login as another learner mid-send: Anna's take is never sent with Ben's token", async () => {
    const { sent, account, queue, store, lineStates } = await app();
    account.completeLogin('tok-anna', info('anna', 'tok-anna'));
    await queue.enqueue(take('a1', 'sA'));
    await until(() => sent.length === 1);
    expect(sent[0]).toMatchObject({ takeId: 'a1', token: 'tok-anna' });

    account.resetAccount(); // logout (clearLocalData calls this)
    expect(sent[0].signal.aborted).toBe(true); // stopped before anyone else's token exists
    account.completeLogin('tok-ben', info('ben', 'tok-ben'));
    await queue.enqueue(take('b1', 'sB'));
    await until(() => sent.length === 2);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(sent.map((s) => [s.takeId, s.token])).toEqual([
      ['a1', 'tok-anna'],
      ['b1', 'tok-ben'],
    ]);
    expect(lineStates.value.sA).toEqual({ stage: 'idle' });
    expect((await store.all()).map((i) => [i.uploadId, i.owner])).toEqual([
      ['a1', 'u:anna'],
      ['b1', 'u:ben'],
    ]);

    account.completeLogin('tok-anna2', info('anna', 'tok-anna2')); // Anna again, a new session
    await until(() => sent.length === 3);
    expect(sent[2]).toMatchObject({ takeId: 'a1', token: 'tok-anna2' });
    expect(sent[1].signal.aborted).toBe(true);
  });

  it("another tab's login is heard through localStorage and stops this tab's sends at once", async () => {
    const { sent, account, writeToken, queue } = await app();
    account.completeLogin('tok-anna', info('anna', 'tok-anna'));
    await queue.enqueue(take('a1', 'sA'));
    await until(() => sent.length === 1);
    writeToken('tok-ben');
    localStorage.setItem(account.USER_INFO_KEY, JSON.stringify(info('ben', 'tok-ben')));
    window.dispatchEvent(new StorageEvent('storage', { key: account.USER_INFO_KEY }));
    expect(sent[0].signal.aborted).toBe(true);
    await settle();
    expect(sent).toHaveLength(1);
  });
});
