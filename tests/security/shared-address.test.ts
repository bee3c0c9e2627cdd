import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIMITS } from '../../server/auth/login-limiter';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * A classroom behind one address (a school's NAT, the kiosks of one centre) while an attacker guesses
 * from the same address: the learners who type their own password sign in, on the web and by QR
 * confirm; the attacker's verified guesses stay bounded (LIMITS: the address's budget, then 2 per
 * account name) and each account's own lock still holds.
 */
const LOGIN = '/producer/site_products/login_pwd';
const QR_URL = '/producer/site_products/qr_url';
const CONFIRM = '/producer/h5/qr/confirm';
const LEARNERS = 30;
const NAMES = 40;

describeEngines('one shared address: an attacker cannot lock the classroom out', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // Every request here comes from 127.0.0.1: the address's failures per minute
    // (LOGIN_RATE_LIMIT_PER_MINUTE; aimed-locks.test.ts tests them) are lifted so that only the
    // 15-minute failure limits under test decide.
    server = await startTestServer({ engine, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '100000' } });
    for (let i = 0; i < LEARNERS; i++) await addUser(server.app.db, `pupil-${i}`, `pupil-pass-${i}`);
    await addUser(server.app.db, 'target', 'target-secret');
  });
  afterAll(() => server?.close());

  const login = (account: string, password: string) =>
    client(server.url).postJson(LOGIN, { account, password });

  it('30 learners sign in while the same address sprays guesses; the guesses stay bounded', async () => {
    await server.app.db.deleteFrom('login_failures').execute();
    // The attacker first spends the address's budget and more: three rounds over 40 account names.
    const codes: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < NAMES; n++) codes.push((await login(`nobody-${n}`, `guess-${round}`)).body.code);
    }

    // The classroom signs in while the attacker keeps going, in parallel, from the same address.
    const qr = (await client(server.url).get(QR_URL)).body.data as { url: string };
    const uuid = new URL(qr.url).searchParams.get('uuid') ?? '';
    const [learners, attacker, byQr] = await Promise.all([
      Promise.all(Array.from({ length: LEARNERS }, (_, i) => login(`pupil-${i}`, `pupil-pass-${i}`))),
      Promise.all(Array.from({ length: 10 }, (_, g) => login('target', `wrong-${g}`))),
      client(server.url).postJson(CONFIRM, { uuid, account: 'pupil-0', password: 'pupil-pass-0' }),
    ]);
    for (const l of learners) {
      expect(l.status).toBe(200);
      expect(l.body.code).toBe(200);
    }
    expect(byQr.body.code).toBe(200);
    // The spray: within the address's budget every guess is checked; then 2 per name; the third round refused.
    expect(codes.filter((c) => c === 1001)).toHaveLength(NAMES * LIMITS.perAccountFromBusyIp);
    expect(codes.slice(NAMES * 2).every((c) => c === 429)).toBe(true);
    // The busy address gets 2 guesses at the target, not the account's 5.
    const checked = attacker.filter((a) => a.body.code === 1001).length;
    expect(checked).toBe(LIMITS.perAccountFromBusyIp);
    expect(attacker.filter((a) => a.status === 429)).toHaveLength(10 - checked);

    // A learner who mistypes once at the busy address still gets in on the next try.
    expect((await login('pupil-7', 'typo')).body.code).toBe(1001);
    expect((await login('pupil-7', 'pupil-pass-7')).body.code).toBe(200);
  });

  it("an account's own lock holds whatever the address: 5 failures lock it everywhere", async () => {
    await server.app.db.deleteFrom('login_failures').execute();
    await addUser(server.app.db, 'locked', 'locked-secret');
    for (let i = 0; i < LIMITS.perAccount; i++)
      expect((await login('locked', `w-${i}`)).body.code).toBe(1001);
    const right = await login('locked', 'locked-secret');
    expect(right.status).toBe(429);
    // Chinese from the catalogue, its row named for the page to word in the learner's language.
    expect(right.body.msg).toMatch(/^登录失败次数过多，请 \d+ 分钟后再试$/);
    expect(right.body.data).toMatchObject({ msgId: 'error.rateLimited' });
  });
});
