import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { REQUEST_TIMEOUT_MS, request } from '../../../src/api/request';
import { fixtureServerForFile } from './fixture-server';

const server = fixtureServerForFile();
beforeEach(() => server.reset());
afterEach(() => vi.useRealTimers());

test('a call with no answer is aborted after 60 000 ms with the no-response message', async () => {
  expect(REQUEST_TIMEOUT_MS).toBe(60_000);
  server.handle(() => {}); // never answers
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let settled: unknown = 'pending';
  const call = request({ method: 'GET', path: '/slow' }).then(
    (v) => {
      settled = v;
    },
    (e) => {
      settled = e;
    },
  );
  await server.waitForRequests(1);
  await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
  expect(settled).toBe('pending');
  await vi.advanceTimersByTimeAsync(1);
  await call;
  expect(settled).toBeInstanceOf(ApiError);
  expect((settled as ApiError).msg).toBe('网络异常，请检查您的网络设置');
  expect((settled as ApiError).timedOut).toBe(true);
});

test("a caller's abort ends the call as 'aborted', not as a network error", async () => {
  server.handle(() => {});
  const controller = new AbortController();
  const call = request({ method: 'GET', path: '/slow', signal: controller.signal });
  await server.waitForRequests(1);
  controller.abort();
  await expect(call).rejects.toMatchObject({ reason: 'aborted' });
});
