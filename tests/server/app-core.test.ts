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

it('config: load shedding by event-loop delay is on by default, 0 turns it off, tiny limits are refused', () => {
  expect(loadConfig({}).maxEventLoopDelayMs).toBe(1000);
  expect(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '0' }).maxEventLoopDelayMs).toBe(0);
  expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '5' })).toThrow(/MAX_EVENT_LOOP_DELAY_MS/);
});

describeEngines('serving the built client', (engine) => {
  let server: TestServer;
  let spa: string;
  beforeAll(async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    spa = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-spa-'));
    fs.mkdirSync(path.join(spa, 'assets'));
    fs.writeFileSync(path.join(spa, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    fs.writeFileSync(path.join(spa, 'assets', 'main-abc123.js'), 'console.log(1)');
    server = await startTestServer({ engine, spaRoot: spa });
  });
  afterAll(() => server?.close());

  it('serves index.html for client routes (history fallback) and hashed assets with long caching', async () => {
    for (const route of ['/', '/prpt/movies', '/prpo/report/123']) {
      const res = await fetch(`${server.url}${route}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    const asset = await fetch(`${server.url}/assets/main-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('keeps 404s for missing files and unknown service routes', async () => {
    expect((await fetch(`${server.url}/assets/missing-chunk.js`)).status).toBe(404);
    const api = await fetch(`${server.url}/producer/unknown`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as AnyEnvelope).code).toBe(404);
  });
});
