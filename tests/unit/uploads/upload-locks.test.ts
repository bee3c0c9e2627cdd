import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { HELD_ELSEWHERE_RECHECK_MS, type UploadQueue } from '../../../src/app/stores/uploads/upload-queue';
import { type UploadLocks, uploadLockName } from '../../../src/app/stores/uploads/upload-locks';
import type { UploadStore } from '../../../src/app/stores/uploads/upload-store';
import { disposeAll, flush, score, stored, TestLocks, testStore, queueOver } from './queue-fixture';

let dbCount = 0;
const queues: UploadQueue[] = [];
afterEach(() => disposeAll(queues));

/** One browser tab: its own queue, service connection and page, over the shared store and locks. */
function tab(store: UploadStore, locks: UploadLocks | null, clock = { t: 1000 }) {
  return { ...queueOver(queues, store, () => 'u:anna', { locks, now: () => clock.t }), clock };
}

async function twoTabsOverOneTake(locks: UploadLocks | null) {
  const store = testStore(`locks-db-${dbCount++}`);
  await store.put(stored('u1', 's1', 'u:anna'));
  const first = tab(store, locks);
  const second = tab(store, locks);
  await first.q.resume();
  await second.q.resume();
  await flush();
  return { store, first, second };
}

describe('two tabs and one pending take', () => {
  it('without Web Locks both tabs send it (the behaviour the lock removes)', async () => {
    const { first, second } = await twoTabsOverOneTake(null);
    expect(first.service.calls).toHaveLength(1);
    expect(second.service.calls).toHaveLength(1);
  });

  it('with Web Locks the second tab skips it, then finds it gone and stops showing it as pending', async () => {
    const locks = new TestLocks();
    const { store, first, second } = await twoTabsOverOneTake(locks);
    expect(first.service.calls).toHaveLength(1);
    expect(second.service.calls).toHaveLength(0);
    expect(locks.skipped).toEqual([uploadLockName('u1')]);
    expect(second.page.last('s1')).toMatchObject({ stage: 'queued' });
    expect(second.page.states.some(([, s]) => s.stage === 'uploading')).toBe(false);
    expect(second.q.size).toBe(1);

    const call = first.service.calls[0];
    call.resolve(score(call.item));
    await flush();
    expect(first.page.scored.map((i) => i.uploadId)).toEqual(['u1']);
    expect(await store.all()).toEqual([]);

    // The second tab looks again once its recheck is due.
    second.clock.t += HELD_ELSEWHERE_RECHECK_MS;
    second.q.kick();
    await flush();
    expect(second.service.calls).toHaveLength(0);
    expect(second.page.scored).toEqual([]);
    expect(second.page.last('s1')).toEqual({ stage: 'idle' });
    expect(second.q.size).toBe(0);
    expect(second.q.depth.value).toBe(0);
    expect(await second.q.resume()).toEqual([]); // and a later resume does not bring it back
  });

  it('a tab that skipped a take sends it itself when the other tab let go of it unsent', async () => {
    const locks = new TestLocks();
    const { store, first, second } = await twoTabsOverOneTake(locks);
    first.service.calls[0].reject(new ApiError({ code: 503, msg: 'busy', reason: 'server', status: 503 }));
    await flush();
    expect(locks.held.size).toBe(0);
    second.clock.t += HELD_ELSEWHERE_RECHECK_MS;
    second.q.kick();
    await flush();
    expect(second.service.calls.map((c) => c.item.uploadId)).toEqual(['u1']);
    expect((await store.all()).map((i) => i.uploadId)).toEqual(['u1']);
  });

  it('a skip is not a failed try: nothing is written to the store', async () => {
    const locks = new TestLocks();
    const { store, second } = await twoTabsOverOneTake(locks);
    expect(second.page.last('s1')?.message).toBeUndefined();
    expect(await store.all()).toMatchObject([{ uploadId: 'u1', tries: 0, notBefore: 0 }]);
  });
});
