import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { userInfo } from '../../src/api/contract';
import { deleteExpiredSessions } from '../../server/auth/sessions';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { addUser } from './support/seed';

const LOGIN = '/producer/site_products/login_pwd';
const FILMS = '/producer/active_relation_two/show_film_picture';

describeEngines('login_pwd and sessions', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // The per-minute login limit is not under test here; the failure locks are, and each test that
    // fails logins clears the counters after itself so the others start unlocked.
    server = await startTestServer({ engine, seedDemo: true, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterEach(async () => {
    await server.app.db.deleteFrom('login_failures').execute();
  });
  afterAll(() => server?.close());

  it('logs the demo account in and returns a 256-bit token with user info', async () => {
    const c = client(server.url);
    const res = await c.postJson(LOGIN, { account: 'demo', password: 'demo123456' });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    const info = userInfo.parse(res.body.data);
    expect(info).toMatchObject({ account: 'demo', nickname: '演示学员', expiresIn: 604_800 });
    expect(Buffer.from(info.token, 'base64url').length).toBeGreaterThanOrEqual(32);
    // Stored hashed, never in clear.
    const rows = await server.app.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === info.token)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('gives a wrong password and an unknown account the same answer', async () => {
    const c = client(server.url);
    const wrongPw = await c.postJson(LOGIN, { account: 'demo', password: 'nope-nope' });
    const noUser = await c.postJson(LOGIN, { account: 'nobody-here', password: 'nope-nope' });
    expect(wrongPw.body).toEqual({ code: 1001, msg: '账号或密码错误', data: null });
    expect(noUser.body).toEqual(wrongPw.body);
    expect(noUser.status).toBe(wrongPw.status);
  });

  it('names the missing field in a validation error', async () => {
    const c = client(server.url);
    const res = await c.postJson(LOGIN, { account: 'demo' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.data.field).toBe('password');
    expect(res.body.msg).toContain('password');
    const empty = await c.postJson(LOGIN, { account: '', password: 'x' });
    expect(empty.body.data.issues[0]).toMatchObject({ path: 'account', message: '请输入账号' });
  });

  it('strips unknown fields instead of failing', async () => {
    const c = client(server.url);
    const res = await c.postJson(LOGIN, { account: 'demo', password: 'demo123456', admin: true, _v: 123 });
    expect(res.body.code).toBe(200);
  });

  it('answers 1002 for a missing, unknown, "undefined" or expired token', async () => {
    const c = client(server.url);
    const expected = { code: 1002, msg: '登录信息已失效，请重新登录', data: null };
    const missing = await c.get(FILMS);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(expected);
    expect((await c.get(FILMS, undefined, { token: 'undefined' })).body).toEqual(expected);
    expect((await c.get(FILMS, undefined, { token: 'made-up-token' })).body).toEqual(expected);

    const info = await c.login('demo', 'demo123456');
    expect((await c.get(FILMS)).body.code).toBe(200);
    // Age every session past its expiry.
    await server.app.db.updateTable('sessions').set({ expires_at: '2000-01-01T00:00:00.000Z' }).execute();
    const expired = await c.get(FILMS, undefined, { token: info.token });
    expect(expired.body).toEqual(expected);
  });

  it('locks an account after repeated failures, with a message saying when to retry', async () => {
    await addUser(server.app.db, 'victim', 'right-password');
    const c = client(server.url);
    for (let i = 0; i < 5; i++) {
      const r = await c.postJson(LOGIN, { account: 'victim', password: `wrong-${i}` });
      expect(r.body.code).toBe(1001);
    }
    const locked = await c.postJson(LOGIN, { account: 'victim', password: 'right-password' });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe(429);
    expect(locked.body.msg).toMatch(/登录失败次数过多，请 \d+ 分钟后再试/);
    expect(locked.body.data.retryAfterSeconds).toBeGreaterThan(0);
    // Another account from the same IP is not locked yet.
    expect((await c.postJson(LOGIN, { account: 'demo', password: 'demo123456' })).body.code).toBe(200);
    // After the lock has passed, the right password works again.
    await server.app.db
      .updateTable('login_failures')
      .set({ locked_until: '2000-01-01T00:00:00.000Z' })
      .execute();
    expect((await c.postJson(LOGIN, { account: 'victim', password: 'right-password' })).body.code).toBe(200);
  });

  it('an address that failed many times gets 2 tries per account, and its learners still sign in', async () => {
    const c = client(server.url);
    await server.app.db.deleteFrom('login_failures').execute();
    for (let i = 0; i < 20; i++) {
      expect((await c.postJson(LOGIN, { account: `guess-${i}`, password: 'wrong-password' })).body.code).toBe(
        1001,
      );
    }
    // The right password from the busy address is never refused for the address's sake.
    expect((await c.postJson(LOGIN, { account: 'demo', password: 'demo123456' })).body.code).toBe(200);
    // An account that failed once from it gets one more try, then waits.
    expect((await c.postJson(LOGIN, { account: 'guess-0', password: 'wrong-again' })).body.code).toBe(1001);
    const refused = await c.postJson(LOGIN, { account: 'guess-0', password: 'third' });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/登录失败次数过多，请 \d+ 分钟后再试/);
    await server.app.db.deleteFrom('login_failures').execute();
  });
});

describeEngines('accounts and housekeeping', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it('creates accounts with a hashed password and refuses duplicates and weak input', async () => {
    const user = await addUser(server.app.db, 'carol', 'carol-pass');
    expect(user.nickname).toBe('carol');
    const row = await server.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    await expect(addUser(server.app.db, 'carol', 'another-pass')).rejects.toThrow(/already exists/);
    await expect(addUser(server.app.db, 'bad name', 'whatever-pass')).rejects.toThrow(/Account must be/);
    await expect(addUser(server.app.db, 'dave', '123')).rejects.toThrow(/Password must be/);
  });

  it('housekeeping drops expired sessions and old QR requests only', async () => {
    const erin = await addUser(server.app.db, 'erin', 'erin-pass');
    const c = client(server.url);
    const info = await c.login('erin', 'erin-pass');
    await c.login('erin', 'erin-pass');
    await server.app.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('user_id', '=', erin.id)
      .execute();
    await c.login('erin', 'erin-pass');
    await deleteExpiredSessions(server.app.db);
    const left = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', erin.id)
      .execute();
    expect(left.length).toBe(1);
    expect(
      (await c.get('/producer/active_relation_two/show_film_picture', undefined, { token: info.token })).body
        .code,
    ).toBe(1002);
  });
});
