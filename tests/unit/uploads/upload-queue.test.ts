import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import type { LineState } from '../../../src/app/stores/uploads/line-state';
import { UploadQueue } from '../../../src/app/stores/uploads/upload-queue';
import {
  idbUploadStore,
  type PendingUpload,
  type UploadStore,
} from '../../../src/app/stores/uploads/upload-store';
import { fakeService, score, stored, upload } from './queue-fixture';

let dbCount = 0;
const queues: UploadQueue[] = [];
afterEach(() => {
  for (const q of queues.splice(0)) q.dispose();
});

/** A queue over a fresh IndexedDB store (`store`), with `overrides` of its store methods. */
function makeQueue(
  storeName: string,
  service: ReturnType<typeof fakeService>,
  clock = { t: 1000 },
  overrides: Partial<UploadStore> = {},
) {
  const states: [string, LineState][] = [];
  const scored: PendingUpload[] = [];
  const store = idbUploadStore(createStore(storeName, 'pending'));
  const q = new UploadQueue({
    store: { ...store, ...overrides },
    send: service.send,
    onScored: (item) => scored.push(item),
    onState: (item, s) => states.push([item.subtitlesId, s]),
    now: () => clock.t,
    random: () => 0.5,
    learner: () => 'u:learner-1',
  });
  queues.push(q);
  return { q, store, states, scored };
}

/** Lets IndexedDB (fake-indexeddb answers on later turns) and the queue's continuations settle. */
async function flush() {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('UploadQueue', () => {
  it('persists a take before sending and deletes it only after it is scored', async () => {
    const name = `db-${dbCount++}`;
    const service = fakeService();
    const { q, store, scored } = makeQueue(name, service);
    await q.enqueue(upload('u1'));
    expect((await store.all()).map((i) => i.uploadId)).toEqual(['u1']);
    await flush();
    expect(service.calls).toHaveLength(1);
    service.calls[0].resolve(score(service.calls[0].item));
    await flush();
    await flush();
    expect(scored.map((i) => i.uploadId)).toEqual(['u1']);
    expect(await store.all()).toEqual([]);
    expect(q.depth.value).toBe(0);
  });

  it("shows a score without waiting for its stored copy's removal, and a failed removal is no error", async () => {
    for (const removal of ['never ends', 'fails'] as const) {
      const service = fakeService();
      const { q, states, scored } = makeQueue(`db-${dbCount++}`, service, undefined, {
        remove: () => (removal === 'fails' ? Promise.reject(new Error('quota')) : new Promise(() => {})),
      });
      await q.enqueue(upload('u1'));
      await flush();
      service.calls[0].resolve(score(service.calls[0].item));
      await flush();
      expect(
        scored.map((i) => i.uploadId),
        removal,
      ).toEqual(['u1']);
      expect(
        states.map(([, s]) => s.stage),
        removal,
      ).toEqual(['queued', 'uploading']);
      expect(q.depth.value, removal).toBe(0);
    }
  });

  it('sends a new take while it is being written, and removes it only once the write is done', async () => {
    const service = fakeService();
    let write = () => {};
    const { q, store, scored } = makeQueue(`db-${dbCount++}`, service, undefined, {
      // The first write waits for the test; later ones (a retry's) go straight through.
      put: (item) => (item.tries === 0 ? new Promise<void>((r) => (write = r)) : Promise.resolve()),
      has: () => Promise.reject(new Error('a new take is not looked up')),
    });
    let kept = false;
    const enqueued = q.enqueue(upload('u1')).then(() => (kept = true));
    await flush();
    expect(service.calls.map((c) => c.item.uploadId)).toEqual(['u1']);
    expect(kept).toBe(false);
    service.calls[0].resolve(score(service.calls[0].item));
    await flush();
    expect(scored.map((i) => i.uploadId)).toEqual(['u1']);
    // The write lands after the score: the take is removed after it, not before (it would stay).
    await store.put(stored('u1', 's1', 'u:learner-1'));
    write();
    await enqueued;
    await flush();
    expect(kept).toBe(true);
    expect(await store.all()).toEqual([]);
  });

  it('a new take that cannot be written is not sent on, unless it was scored already', async () => {
    for (const scoredFirst of [false, true]) {
      const service = fakeService();
      let fail = (_: Error) => {};
      const { q, states, scored } = makeQueue(`db-${dbCount++}`, service, undefined, {
        put: () => new Promise<void>((_, reject) => (fail = reject)),
      });
      const enqueued = q.enqueue(upload('u1')).then(
        () => 'kept',
        (e: Error) => e.message,
      );
      await flush();
      if (scoredFirst) {
        service.calls[0].resolve(score(service.calls[0].item));
        await flush();
      }
      fail(new Error('QuotaExceededError'));
      expect(await enqueued, String(scoredFirst)).toBe(scoredFirst ? 'kept' : 'QuotaExceededError');
      await flush();
      expect(scored.length, String(scoredFirst)).toBe(scoredFirst ? 1 : 0);
      expect(q.size, String(scoredFirst)).toBe(0);
      if (!scoredFirst) expect(states.at(-1)?.[1].stage).toBe('idle');
    }
  });

  it('keeps a take when the service is unreachable and sends it after a reload', async () => {
    const name = `db-${dbCount++}`;
    const down = fakeService();
    const first = makeQueue(name, down);
    await first.q.enqueue(upload('u1'));
    await flush();
    down.calls[0].reject(new ApiError({ code: 0, msg: '网络异常，请检查您的网络设置', reason: 'network' }));
    await flush();
    await flush();
    const stored = await first.store.all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ uploadId: 'u1', tries: 1, lastError: '网络异常，请检查您的网络设置' });
    expect(stored[0].notBefore).toBeGreaterThan(1000);
    expect(new Uint8Array(stored[0].wav)).toEqual(new Uint8Array([82, 73, 70, 70]));
    first.q.dispose();

    // A new page: a new queue over the same IndexedDB.
    const up = fakeService();
    const second = makeQueue(name, up, { t: 1_000_000 });
    const resumed = await second.q.resume();
    expect(resumed.map((i) => i.uploadId)).toEqual(['u1']);
    await flush();
    expect(up.calls.map((c) => c.item.uploadId)).toEqual(['u1']);
    up.calls[0].resolve(score(up.calls[0].item));
    await flush();
    await flush();
    expect(second.scored.map((i) => i.uploadId)).toEqual(['u1']);
    expect(await second.store.all()).toEqual([]);
  });

  it('backs off between retries and sends at once when the browser comes back online', async () => {
    const name = `db-${dbCount++}`;
    const service = fakeService();
    const clock = { t: 0 };
    const { q, states } = makeQueue(name, service, clock);
    await q.enqueue(upload('u1'));
    await flush();
    service.calls[0].reject(new ApiError({ code: 503, msg: 'busy', reason: 'server', status: 503 }));
    await flush();
    await flush();
    const queued = states.filter(([, s]) => s.stage === 'queued').at(-1)?.[1];
    expect(queued?.retryAt).toBe(1000); // first retry after 1 s (jitter fixed at the middle)
    expect(service.calls).toHaveLength(1);
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(2);
  });

  it('gives up on a take the service refused, and the retry button sends it again', async () => {
    const name = `db-${dbCount++}`;
    const service = fakeService();
    const { q, states } = makeQueue(name, service);
    await q.enqueue(upload('u1'));
    await flush();
    service.calls[0].reject(new ApiError({ code: 400, msg: '录音太短', reason: 'server', status: 200 }));
    await flush();
    await flush();
    expect(states.at(-1)?.[1]).toMatchObject({ stage: 'failed', message: '录音太短' });
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(1); // a refusal is not retried by itself
    q.retry('u1');
    await flush();
    expect(service.calls).toHaveLength(2);
  });

  it('holds everything after a 1002 until the learner logs in again', async () => {
    const name = `db-${dbCount++}`;
    const service = fakeService();
    const { q } = makeQueue(name, service);
    await q.enqueue(upload('u1'));
    await q.enqueue(upload('u2', 's2'));
    await flush();
    expect(service.calls).toHaveLength(2);
    service.calls[0].reject(
      new ApiError({ code: 1002, msg: '登录信息已失效', reason: 'server', status: 200 }),
    );
    service.calls[1].reject(
      new ApiError({ code: 1002, msg: '登录信息已失效', reason: 'server', status: 200 }),
    );
    await flush();
    await flush();
    expect(q.blockedBySession.value).toBe(true);
    q.kick(); // what start.ts does when the browser comes back online
    await flush();
    expect(service.calls).toHaveLength(2);
    q.resumeAfterLogin();
    await flush();
    expect(service.calls).toHaveLength(4);
    expect(q.pendingFor('s2').map((i) => i.uploadId)).toEqual(['u2']);
  });

  it('sends at most two at a time', async () => {
    const name = `db-${dbCount++}`;
    const service = fakeService();
    const { q } = makeQueue(name, service);
    for (const id of ['a', 'b', 'c']) await q.enqueue(upload(id));
    await flush();
    expect(service.calls).toHaveLength(2);
    expect(q.inFlight.value).toBe(2);
    service.calls[0].resolve(score(service.calls[0].item));
    await flush();
    await flush();
    expect(service.calls).toHaveLength(3);
  });
});
