import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { LIMITS } from '../../server/auth/login-limiter';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * docs/api.md, "Rate limits": parallel guesses on one account. An attempt is counted before its password is checked
 * (reserve, then verify), so a burst verifies at most the account limit (5) and the rest get 429 —
 * the right password too once the lock is set — and no count is lost on either engine.
 */
const LOGIN = '/producer/site_products/login_pwd';

describeEngines('parallel brute force on one account', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // The per-IP request limit (30/min) would cut a burst short on its own: lift it, so only the
    // failure locks under test decide.
    server = await startTestServer({ engine, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await server.app.db.deleteFrom('login_failures').execute();
  });

  const login = (account: string, password: string) =>
    client(server.url).postJson(LOGIN, { account, password });
  const counter = async (account: string) =>
    (await server.app.db
      .selectFrom('login_failures')
      .select(['count', 'locked_until'])
      .where('key', '=', `account:${account}`)
      .executeTakeFirst()) ?? null;

  it('a burst of 60 wrong passwords: at most 5 are checked, the rest answer 429, no count lost', async () => {
    await addUser(server.app.db, 'burst', 'right-password-1');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => login('burst', `wrong-${i}`)));
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 1001)).toHaveLength(LIMITS.perAccount);
    expect(codes.filter((c) => c === 429)).toHaveLength(60 - LIMITS.perAccount);
    for (const a of answers.filter((x) => x.body.code === 429)) {
      expect(a.status).toBe(429);
      expect(a.body.msg).toMatch(/登录失败次数过多，请 \d+ 分钟后再试/);
    }
    const row = await counter('burst');
    expect(row?.count).toBe(LIMITS.perAccount);
    expect(row?.locked_until && row.locked_until > new Date().toISOString()).toBe(true);
    // The right password after the lock is refused as well, and does not reset the counter.
    const right = await login('burst', 'right-password-1');
    expect(right.body.code).toBe(429);
    expect((await counter('burst'))?.count).toBe(LIMITS.perAccount);
  });

  it('a success clears the account counter and gives the IP its count back', async () => {
    await addUser(server.app.db, 'forgetful', 'right-password-3');
    for (let i = 0; i < LIMITS.perAccount - 1; i++) {
      expect((await login('forgetful', `wrong-${i}`)).body.code).toBe(1001);
    }
    expect((await login('forgetful', 'right-password-3')).body.code).toBe(200);
    expect(await counter('forgetful')).toBeNull();
    const ip = await server.app.db
      .selectFrom('login_failures')
      .select('count')
      .where('key', 'like', 'ip:%')
      .executeTakeFirst();
    expect(ip?.count).toBe(LIMITS.perAccount - 1);
    // Four more wrong ones are allowed again before the lock.
    for (let i = 0; i < LIMITS.perAccount - 1; i++) {
      expect((await login('forgetful', `again-${i}`)).body.code).toBe(1001);
    }
  });

  it('many learners signing in from one kiosk address are not locked by their successes', async () => {
    for (let i = 0; i < LIMITS.perIp + 5; i++) {
      await addUser(server.app.db, `kiosk-${i}`, 'learner-pass');
      expect((await login(`kiosk-${i}`, 'learner-pass')).body.code).toBe(200);
    }
  });
});
