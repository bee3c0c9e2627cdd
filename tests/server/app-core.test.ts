import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import type { AnyEnvelope } from './support/http';

describeEngines('app core', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it('answers unknown /producer routes with the 404 envelope', async () => {
    const res = await fetch(`${server.url}/producer/nope`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as AnyEnvelope;
    expect(body).toMatchObject({ code: 404, data: null });
    expect(body.msg).toContain('/producer/nope');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a placeholder or real AI mount under /ai', async () => {
    const res = await fetch(`${server.url}/ai/anything`);
    const body = (await res.json()) as AnyEnvelope;
    expect(typeof body.code).toBe('number');
    expect(body).toHaveProperty('msg');
  });

  it('runs migrations so every table exists', async () => {
    const films = await server.app.db.selectFrom('films').select('id').execute();
    expect(films).toEqual([]);
    expect(server.app.dbEngine).toBe(engine);
  });

  it('answers malformed JSON with code 400 and no stack trace', async () => {
    const res = await fetch(`${server.url}/producer/site_products/login_pwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"account":',
    });
    const body = (await res.json()) as AnyEnvelope;
    expect(body.code).toBe(400);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });
});

it('config: lists every invalid variable at once', () => {
  try {
    loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect.unreachable();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as ConfigError).message;
    expect(msg).toContain('PORT');
    expect(msg).toContain('DATABASE_URL');
    expect(msg).toContain('LOG_LEVEL');
  }
});

it('config: defaults', () => {
  const c = loadConfig({});
  expect(c.port).toBe(8080);
  expect(c.host).toBe('0.0.0.0');
  expect(c.databaseUrl).toBeUndefined();
  expect(c.aiWorkers).toBeGreaterThanOrEqual(1);
});
