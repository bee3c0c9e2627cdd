import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type AnyEnvelope, client } from './support/http';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  instance?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  user?: string;
  code?: number;
  reason?: string;
}

describeEngines('health, readiness and request logs', (engine) => {
  let server: TestServer;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      seedDemo: true,
      env: { LOG_LEVEL: 'info', INSTANCE_ID: `app-${engine}` },
      logStream: { write: (line: string) => lines.push(JSON.parse(line) as LogLine) },
    });
  });
  afterAll(() => server?.close());

  const requestLines = (reqId: string) => lines.filter((l) => l.reqId === reqId && l.msg === 'request');

  it('/health names the instance and every engine it reached', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as AnyEnvelope;
    expect(data.instance).toBe(`app-${engine}`);
    expect(data.status).toBe('ok');
    expect(data.engines.database).toMatchObject({ ok: true, engine });
    expect(data.engines.storage).toMatchObject({ ok: true, kind: 'fs' });
    expect(data.engines.scoring).toMatchObject({ ok: true, mode: 'pool', workers: 1 });
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  });

  it('writes one line per request with the balancer request id, status, path and learner', async () => {
    const c = client(server.url);
    const me = await c.login('demo', 'demo123456');
    const reqId = 'f3b1c2d4e5a60718293a4b5c6d7e8f90';
    const res = await c.get('/producer/active_relation_two/show_film_picture', {}, { 'x-request-id': reqId });
    expect(res.headers.get('x-request-id')).toBe(reqId);
    const mine = requestLines(reqId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      instance: `app-${engine}`,
      method: 'GET',
      path: '/producer/active_relation_two/show_film_picture',
      status: 200,
      user: me.id,
    });
    expect(mine[0].ms).toBeGreaterThanOrEqual(0);
    expect(lines.filter((l) => l.reqId === reqId)).toHaveLength(1);
  });

  it('puts the reason of a refusal into the same line', async () => {
    const res = await client(server.url).send('POST', '/producer/site_products/login_pwd', {
      json: { account: 'demo' },
    });
    const id = res.headers.get('x-request-id') ?? '';
    expect(res.status).toBe(400);
    expect(requestLines(id)).toMatchObject([{ status: 400, code: res.body.code, reason: res.body.msg }]);
    expect(lines.filter((l) => l.reqId === id)).toHaveLength(1);
  });

  it('replaces a malformed request id instead of logging it', async () => {
    const res = await fetch(`${server.url}/producer/nothing-here`, {
      headers: { 'x-request-id': '"}forged{"level":60' },
    });
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines(id)).toMatchObject([{ status: 404, path: '/producer/nothing-here' }]);
  });

  it('answers 503 and names the engine that did not answer', async () => {
    const root = path.join(server.config.dataDir, 'media');
    fs.rmSync(root, { recursive: true, force: true });
    try {
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(503);
      const { code, data } = (await res.json()) as AnyEnvelope;
      expect(code).toBe(503);
      expect(data.status).toBe('degraded');
      expect(data.engines.storage).toMatchObject({ ok: false, error: 'ENOENT' });
      expect(data.engines.database.ok).toBe(true);
      expect((await fetch(`${server.url}/ready`)).status).toBe(503);
    } finally {
      fs.mkdirSync(root, { recursive: true });
    }
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  });
});
