import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/auth/login-limiter';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Nobody behind a shared address (a school's NAT) can use the address's sign-in limits against a
 * classmate: a correct password from an address the learner signed in from is not refused for the
 * address's sake, successes do not use up the address's failures per minute, and parallel correct
 * sign-ins to one account are not counted as failures. The account's own lock still holds.
 */
const LOGIN = '/producer/site_products/login_pwd';

describeEngines('sign-in limits cannot be aimed at a classmate', (engine) => {
  describe('a busy address and named learners', () => {
    let server: TestServer;
    beforeAll(async () => {
      // Failures per minute are lifted here: the address's 15-minute limits are under test.
      server = await startTestServer({ engine, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '100000' } });
    });
    afterAll(() => server?.close());
    const login = (account: string, password: string) =>
      client(server.url).postJson(LOGIN, { account, password });

    it('2 wrong guesses per classmate from a busy address do not lock out their correct passwords', async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      const classmates = ['mate-a', 'mate-b', 'mate-c'];
      for (const name of classmates) {
        await addUser(server.app.db, name, `${name}-pass`);
        // Each has signed in from this address before (the classroom's usual kiosk).
        expect((await login(name, `${name}-pass`)).body.code).toBe(200);
      }
      // The attacker makes the address busy at unknown names, then aims 2 guesses at each classmate.
      for (let i = 0; i < LIMITS.perIp; i++) expect((await login(`ghost-${i}`, 'x')).body.code).toBe(1001);
      for (const name of classmates) {
        for (let g = 0; g < LIMITS.perAccountFromBusyIp; g++)
          expect((await login(name, `guess-${g}`)).body.code).toBe(1001);
      }
      for (const name of classmates) {
        const right = await login(name, `${name}-pass`);
        expect(right.status).toBe(200);
        expect(right.body.code).toBe(200);
      }
    });

    it("from an address the learner used, the account's own lock still holds: 5 failures lock it", async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      await addUser(server.app.db, 'mate-d', 'mate-d-pass');
      expect((await login('mate-d', 'mate-d-pass')).body.code).toBe(200);
      for (let i = 0; i < LIMITS.perIp; i++) expect((await login(`ghost2-${i}`, 'x')).body.code).toBe(1001);
      for (let g = 0; g < LIMITS.perAccount; g++)
        expect((await login('mate-d', `w-${g}`)).body.code).toBe(1001);
      const right = await login('mate-d', 'mate-d-pass');
      expect(right.status).toBe(429);
      expect(right.body.msg).toMatch(/^登录失败次数过多，请 \d+ 分钟后再试$/);
    });

    it('a name that never signed in from the busy address still gets 2 guesses from it', async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      await addUser(server.app.db, 'stranger', 'stranger-pass');
      for (let i = 0; i < LIMITS.perIp; i++) expect((await login(`ghost3-${i}`, 'x')).body.code).toBe(1001);
      const codes: number[] = [];
      for (let g = 0; g < 4; g++) codes.push((await login('stranger', `w-${g}`)).body.code);
      expect(codes).toEqual([1001, 1001, 429, 429]);
    });

    it('10 parallel correct sign-ins to one account all succeed (two kiosks, a double tap)', async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      await addUser(server.app.db, 'double-tap', 'double-tap-pass');
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => login('double-tap', 'double-tap-pass')),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(200));
    });

    it('10 parallel wrong guesses at one account: still at most 5 are checked', async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      await addUser(server.app.db, 'parallel-target', 'parallel-pass');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, g) => login('parallel-target', `w-${g}`)),
      );
      expect(answers.filter((a) => a.body.code === 1001)).toHaveLength(LIMITS.perAccount);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(10 - LIMITS.perAccount);
    });
  });

  describe("the address's failures per minute", () => {
    const PER_MINUTE = 30;
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ engine, env: { LOGIN_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) } });
    });
    afterAll(() => server?.close());
    const login = (account: string, password: string) =>
      client(server.url).postJson(LOGIN, { account, password });

    it('40 learners sign in within a minute; 30 junk sign-ins do not lock out a classmate', async () => {
      await server.app.db.deleteFrom('login_failures').execute();
      // Successes do not use up the budget: a class of 40 signs in at once.
      for (let i = 0; i < 40; i++) await addUser(server.app.db, `class-${i}`, `class-pass-${i}`);
      const classroom = await Promise.all(
        Array.from({ length: 40 }, (_, i) => login(`class-${i}`, `class-pass-${i}`)),
      );
      expect(classroom.map((a) => a.body.code)).toEqual(Array(40).fill(200));
      // Junk uses up the address's failures for the minute ...
      for (let i = 0; i < PER_MINUTE; i++) expect((await login(`junk-${i}`, 'x')).body.code).toBe(1001);
      const over = await login('junk-more', 'x');
      expect(over.status).toBe(429);
      expect(over.body.msg).toMatch(/^请求过于频繁，请在 \d+ 秒后再试$/);
      // ... but a classmate who signed in from here before still gets in.
      const right = await login('class-3', 'class-pass-3');
      expect(right.status).toBe(200);
      expect(right.body.code).toBe(200);
    });
  });
});
