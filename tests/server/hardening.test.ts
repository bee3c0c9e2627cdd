import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';

const LOGIN = '/producer/site_products/login_pwd';

describeEngines('hardening', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
  });
  afterAll(() => server?.close());

  it('refuses an oversized body with 413 in the envelope', async () => {
    const res = await fetch(`${server.url}${LOGIN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: 'x'.repeat(10_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 413, data: null });
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await fetch(`${server.url}${LOGIN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<login/>',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 415 });
  });

  it('tags every answer with a request id (and honours a given one)', async () => {
    const res = await fetch(`${server.url}/producer/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(await res.json()).toMatchObject({ code: 200, data: { ok: true, engine } });
  });

  it('rate-limits a flood of requests with a 429 envelope saying when to retry', async () => {
    // A server of its own: the flood spends the address's budget, which the other tests here share.
    const flooded = await startTestServer({ engine, env: { RATE_LIMIT_PER_MINUTE: '40' } });
    try {
      const c = client(flooded.url);
      let limited: Awaited<ReturnType<typeof c.get>> | undefined;
      for (let i = 0; i < 60 && !limited; i++) {
        const res = await c.get('/producer/active_relation_two/show_film_picture');
        if (res.status === 429) limited = res;
      }
      expect(limited).toBeDefined();
      expect(limited!.body.code).toBe(429);
      expect(limited!.body.msg).toMatch(/请在 \d+ 秒后再试/);
      expect(limited!.headers.get('retry-after')).toBeTruthy();
    } finally {
      await flooded.close();
    }
  });
});

describeEngines('load shedding', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { MAX_EVENT_LOOP_DELAY_MS: '50' } });
  });
  afterAll(() => server?.close());

  it('answers 503 with the envelope and Retry-After while the event loop lags', async () => {
    // The server runs in this process. under-pressure samples the mean event-loop delay once a
    // second, so keep every turn of the loop ~100 ms late (Atomics.wait blocks without spinning a
    // core) until its sample reports the pressure, then ask.
    const lock = new Int32Array(new SharedArrayBuffer(4));
    for (let turn = 0; !server.app.isUnderPressure(); turn++) {
      if (turn > 50) throw new Error('under-pressure never reported the lag');
      Atomics.wait(lock, 0, 0, 100);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const shed = await fetch(`${server.url}/producer/health`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('5');
    expect(await shed.json()).toMatchObject({
      code: 503,
      msg: '服务器繁忙，请稍后再试',
      data: null,
    });
  });
});
