import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { dropRedisPrefix, newRedisPrefix, SKIP_REDIS, testRedisUrl } from '../server/support/redis';
import { addUser } from '../server/support/seed';
import { startTestServer, testDatabaseUrl, type TestServer } from '../support/server';

/**
 * docs/api.md, logout: logout ends the session on the server, so a kiosk's token is dead once the learner
 * leaves — on every instance — and the phone confirm page's cookie is out of scripts' reach.
 */
const LOGOUT = '/producer/site_products/logout';
const FILMS = '/producer/active_relation_two/show_film_picture';

describeEngines('logout revokes the session', (engine) => {
  let a: TestServer;
  let b: TestServer;
  const prefix = newRedisPrefix();
  beforeAll(async () => {
    const redis: Record<string, string> = SKIP_REDIS
      ? {}
      : { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix };
    a = await startTestServer({ engine, env: redis });
    // A second instance on the same database (and Redis), as behind a balancer.
    const shared: Record<string, string> =
      engine === 'postgres'
        ? { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: a.config.databaseSchema ?? '' }
        : { DATA_DIR: a.config.dataDir };
    b = await startTestServer({ engine, env: { ...redis, ...shared } });
    await addUser(a.app.db, 'leaver', 'leaver-pass');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (!SKIP_REDIS) await dropRedisPrefix(prefix);
  });

  it('the token is refused on every instance after logout; other sessions of the learner stay', async () => {
    const kiosk = client(a.url);
    const { token } = await kiosk.login('leaver', 'leaver-pass');
    const phone = client(a.url);
    const { token: phoneToken } = await phone.login('leaver', 'leaver-pass');
    const onB = client(b.url);
    onB.setToken(token);
    expect((await onB.get(FILMS)).body.code).toBe(200);

    const out = await kiosk.postJson(LOGOUT, {});
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ code: 200, data: null });
    expect(out.body.msg).toBe('已退出登录');

    for (const c of [kiosk, onB]) {
      const res = await c.get(FILMS);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(1002);
    }
    phone.setToken(phoneToken);
    expect((await phone.get(FILMS)).body.code).toBe(200);
  });

  it('is idempotent: an unknown, revoked or missing token answers 200, never 1002', async () => {
    const c = client(b.url);
    const { token } = await c.login('leaver', 'leaver-pass');
    expect((await c.postJson(LOGOUT, {})).body.code).toBe(200);
    expect((await c.postJson(LOGOUT, {})).body.code).toBe(200);
    c.setToken('not-a-token');
    expect((await c.postJson(LOGOUT, {})).body.code).toBe(200);
    c.setToken(undefined);
    expect((await c.postJson(LOGOUT, {})).body.code).toBe(200);
    // The revoked token stays refused.
    c.setToken(token);
    expect((await c.get(FILMS)).body.code).toBe(1002);
  });

  it("the phone confirm page's user-token cookie is httpOnly and scoped to the phone pages", async () => {
    const qr = (await client(a.url).get('/producer/site_products/qr_url')).body.data;
    const uuid = new URL(qr.url).searchParams.get('uuid') ?? '';
    const res = await fetch(`${a.url}/producer/h5/qr/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ uuid, account: 'leaver', password: 'leaver-pass' }).toString(),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^user-token=/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*Path=\/producer\/h5(;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  });
});
