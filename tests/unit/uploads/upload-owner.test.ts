import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { UploadQueue } from '../../../src/app/stores/uploads/upload-queue';
import type { UploadStore } from '../../../src/app/stores/uploads/upload-store';
import { disposeAll, fakeService, flush, queueOver, score, stored, testStore, upload } from './queue-fixture';

// One kiosk, several learners: each test's `who.now` is the learner the token cookie belongs to.
let dbCount = 0;
const queues: UploadQueue[] = [];
afterEach(() => disposeAll(queues));

function kiosk(first: string | null, store: UploadStore = testStore(`owner-db-${dbCount++}`)) {
  const who = { now: first };
  return { ...queueOver(queues, store, () => who.now, { locks: null }), store, who };
}

describe('pending uploads belong to the learner who recorded them', () => {
  it('a new take is stored with the logged-in learner as its owner', async () => {
    const { q, store } = kiosk('u:anna');
    await q.enqueue(upload('u1'));
    expect((await store.all()).map((i) => [i.uploadId, i.owner])).toEqual([['u1', 'u:anna']]);
  });

  it("resume loads, shows and sends only the current learner's takes; the others stay stored untouched", async () => {
    const store = testStore(`owner-db-${dbCount++}`);
    const annas = stored('a1', 'sA', 'u:anna');
    await store.put(annas);
    await store.put(stored('b1', 'sB', 'u:ben'));
    const { q, service, page } = kiosk('u:ben', store);

    const resumed = await q.resume();
    await flush();
    expect(resumed.map((i) => i.uploadId)).toEqual(['b1']);
    expect(service.calls.map((c) => c.item.uploadId)).toEqual(['b1']);
    expect(page.states.map(([line]) => line)).not.toContain('sA');
    expect(q.pendingFor('sA')).toEqual([]);
    expect(q.depth.value).toBe(1);

    service.calls[0].resolve(score(service.calls[0].item));
    await flush();
    expect(page.scored.map((i) => i.uploadId)).toEqual(['b1']);
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(1);
    expect(await store.all()).toEqual([annas]); // not tried, not rewritten
  });

  it("a login as another learner aborts the previous learner's send and sends none of their takes under the new token", async () => {
    const { q, store, who, service, page } = kiosk('u:anna');
    await q.enqueue(upload('a1', 'sA'));
    await flush();
    expect(service.calls.map((c) => [c.item.uploadId, c.learner])).toEqual([['a1', 'u:anna']]);
    const annasSend = service.calls[0].signal;

    who.now = null; // logout
    q.learnerChanged();
    expect(annasSend.aborted).toBe(true);
    who.now = 'u:ben'; // the next learner logs in
    q.learnerChanged();
    await flush();
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(1);
    expect(page.last('sA')).toEqual({ stage: 'idle' }); // Ben does not see Anna's take as pending
    expect(q.pendingFor('sA')).toEqual([]);
    const [kept] = await store.all();
    expect(kept).toMatchObject({ uploadId: 'a1', owner: 'u:anna', tries: 0, notBefore: 0 });
    expect(kept.lastError).toBeUndefined(); // the abort is not a failed try

    await q.enqueue(upload('b1', 'sB'));
    await flush();
    expect(service.calls.map((c) => [c.item.uploadId, c.learner])).toEqual([
      ['a1', 'u:anna'],
      ['b1', 'u:ben'],
    ]);

    who.now = 'u:anna'; // Anna comes back to this kiosk
    q.learnerChanged();
    await flush();
    expect(service.calls.map((c) => [c.item.uploadId, c.learner]).slice(2)).toEqual([['a1', 'u:anna']]);
    expect(service.calls[1].signal.aborted).toBe(true); // Ben's send stopped in turn
  });

  it('a login switch noticed only at the next send (another tab) still sends nothing under the new token', async () => {
    const { q, who, service, page } = kiosk('u:anna');
    await q.enqueue(upload('a1', 'sA'));
    await flush();
    service.calls[0].reject(new ApiError({ code: 0, msg: 'offline', reason: 'network' }));
    await flush();
    expect(page.last('sA')).toMatchObject({ stage: 'queued' });

    who.now = 'u:ben'; // the cookie changed; nobody told the queue
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(1);
    expect(page.last('sA')).toEqual({ stage: 'idle' });
  });

  it('the learner changing while a stored take waits for its store check is not sent', async () => {
    const inner = testStore(`owner-db-${dbCount++}`);
    const who = { now: 'u:anna' as string | null };
    // The store check is the last await before the request: the token changes during it.
    const store: UploadStore = {
      ...inner,
      has: async (id) => {
        const answer = await inner.has(id);
        who.now = 'u:ben';
        return answer;
      },
    };
    const service = fakeService(() => who.now);
    const q = new UploadQueue({
      store,
      send: service.send,
      onScored: () => {},
      onState: () => {},
      learner: () => who.now,
      locks: null,
    });
    queues.push(q);
    // Left by an earlier page: asked for again under its lock (a new take being written is not).
    await inner.put(stored('a1', 's1', 'u:anna'));
    await q.resume();
    await flush();
    expect(service.calls).toEqual([]);
    expect((await inner.all()).map((i) => i.owner)).toEqual(['u:anna']);
  });

  it('a score that arrives after the switch is not shown to the new learner, and the take leaves the store', async () => {
    const { q, store, who, service, page } = kiosk('u:anna');
    await q.enqueue(upload('a1', 'sA'));
    await flush();
    const call = service.calls[0];
    who.now = 'u:ben'; // switched, but the queue has not looked yet when the answer lands
    call.resolve(score(call.item));
    await flush();
    expect(page.scored).toEqual([]);
    expect(await store.all()).toEqual([]); // scored on the server for Anna: nothing left to send
    expect(q.size).toBe(0);
  });

  it('logged out: nothing is sent; the same learner logging in again sends their takes', async () => {
    const store = testStore(`owner-db-${dbCount++}`);
    await store.put(stored('a1', 'sA', 'u:anna'));
    const { q, who, service } = kiosk(null, store);
    expect(await q.resume()).toEqual([]);
    await flush();
    expect(service.calls).toHaveLength(0);
    who.now = 'u:anna';
    q.learnerChanged();
    await flush();
    expect(service.calls.map((c) => [c.item.uploadId, c.learner])).toEqual([['a1', 'u:anna']]);
  });

  it('a take recorded while the cookie is briefly gone is stored under the learner the page had', async () => {
    const { q, store, who, service } = kiosk('u:anna');
    who.now = null; // e.g. another tab logged out a moment ago
    await q.enqueue(upload('a1'));
    await flush();
    expect(service.calls).toHaveLength(0);
    expect((await store.all()).map((i) => i.owner)).toEqual(['u:anna']);
  });
});
