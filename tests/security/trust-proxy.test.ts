import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { startTestServer, type TestServer } from '../support/server';

/**
 * docs/api.md, "Rate limits": X-Forwarded-For names the client only when it comes from a proxy TRUST_PROXY trusts.
 * Off by default, a client that rotates the header is still one address to every per-IP limit.
 */
const LOGIN = '/producer/site_products/login_pwd';
const FILMS = '/producer/active_relation_two/show_film_picture';

/**
 * Wrong passwords for 20 distinct accounts (the budget of one address, LIMITS.perIp), then again and
 * again for the first of them: a busy address gets 2 tries per account, so from the 22nd guess on
 * one address is refused, while many addresses are not.
 */
async function guesses(server: TestServer, n: number, xff: (i: number) => string, tag: string) {
  const c = client(server.url);
  const codes: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await c.send('POST', LOGIN, {
      json: { account: `${tag}-${i < 20 ? i : 0}`, password: 'wrong-password' },
      headers: { 'x-forwarded-for': xff(i) },
    });
    codes.push(res.body.code);
  }
  return codes;
}

const rotating = (i: number) => `198.51.100.${i + 1}`;

describeEngines('X-Forwarded-For without a trusted proxy', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
  });
  afterAll(() => server?.close());

  it('a rotating X-Forwarded-For still counts as one address: the busy address answers 429', async () => {
    const codes = await guesses(server, 25, rotating, 'rot');
    expect(codes.slice(0, 21)).toEqual(Array(21).fill(1001));
    expect(codes.slice(21)).toEqual(Array(4).fill(429));
  });

  it('and the forwarded host is not used for links', async () => {
    const res = await client(server.url).get('/producer/site_products/qr_url', undefined, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(res.body.data.url.startsWith(`${server.url}/producer/h5/qr?uuid=`)).toBe(true);
  });
});

describeEngines('X-Forwarded-For from a trusted proxy', (engine) => {
  let byAddress: TestServer;
  let byHops: TestServer;
  beforeAll(async () => {
    // The test stands where nginx would, on loopback.
    byAddress = await startTestServer({ engine, seedDemo: true, env: { TRUST_PROXY: '127.0.0.1' } });
    byHops = await startTestServer({ engine, seedDemo: true, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await byAddress?.close();
    await byHops?.close();
  });

  it('counts each forwarded client on its own: one is refused, another signs in', async () => {
    const codes = await guesses(byAddress, 22, () => '203.0.113.7', 'one');
    expect(codes.slice(0, 21)).toEqual(Array(21).fill(1001));
    expect(codes[21]).toBe(429);
    const other = await client(byAddress.url).send('POST', LOGIN, {
      json: { account: 'demo', password: 'demo123456' },
      headers: { 'x-forwarded-for': '203.0.113.8' },
    });
    expect(other.body.code).toBe(200);
    // Rotating clients behind the trusted proxy are different clients: none of them is refused.
    expect(new Set(await guesses(byAddress, 22, rotating, 'many'))).toEqual(new Set([1001]));
  });

  it('with a hop count, the address the trusted hop saw wins over what the client wrote before it', async () => {
    // nginx appends the address it saw; a client can only write entries to the left of it.
    const codes = await guesses(byHops, 22, (i) => `${rotating(i)}, 203.0.113.9`, 'hop');
    expect(codes.slice(0, 21)).toEqual(Array(21).fill(1001));
    expect(codes[21]).toBe(429);
  });
});

describeEngines('the per-minute limit and the log line, behind a trusted proxy', (engine) => {
  let server: TestServer;
  const lines: { msg?: string; ip?: string; status?: number; path?: string }[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'info' },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
  });
  afterAll(() => server?.close());

  it('count and name each forwarded client, not the proxy', async () => {
    const c = client(server.url);
    // The film list keeps the global limit (the QR routes have limits of their own); signed out, it answers 401.
    const from = (ip: string) => c.get(FILMS, undefined, { 'x-forwarded-for': ip });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await from('203.0.113.20')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await from('203.0.113.21')).status).toBe(401);
    const logged = lines.filter((l) => l.msg === 'request' && l.path === FILMS);
    expect(logged.map((l) => [l.ip, l.status])).toEqual([
      ['203.0.113.20', 401],
      ['203.0.113.20', 401],
      ['203.0.113.20', 401],
      ['203.0.113.20', 429],
      ['203.0.113.21', 401],
    ]);
  });
});

describe('TRUST_PROXY is validated at start', () => {
  const base = { DATA_DIR: '/tmp/fst-trust-proxy' };
  it('is off by default and accepts a hop count or addresses and CIDRs', () => {
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });

  it.each(['true', 'everyone', '10.0.0.0/33', '300.1.1.1', '1.2.3.4/8/1', '-1'])('refuses %s', (value) => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(ConfigError);
    try {
      loadConfig({ ...base, TRUST_PROXY: value });
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toMatch(/TRUST_PROXY: must be off, a hop count/);
    }
  });
});
