import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCookie } from '../../src/api/token-cookie';
import { createUser, NICKNAME_MAX } from '../../server/auth/users';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Cookies that carry a session are marked Secure when the page is served over HTTPS (the phone
 * page's by the server, honouring TRUST_PROXY; the web app's by the browser's own view of its page),
 * and an account's nickname cannot carry control or text-direction characters or run for pages.
 */
describe("the web app's token cookie", () => {
  it('is Secure on an HTTPS page and keeps its name, lifetime, path and SameSite', () => {
    expect(tokenCookie('abc', true)).toBe('user-token=abc; max-age=604800; path=/; SameSite=Lax; Secure');
    expect(tokenCookie('abc', false)).toBe('user-token=abc; max-age=604800; path=/; SameSite=Lax');
  });
});

async function confirmCookie(server: TestServer, headers: Record<string, string>): Promise<string> {
  const qr = (await client(server.url).get('/producer/site_products/qr_url')).body.data as { url: string };
  const uuid = new URL(qr.url).searchParams.get('uuid') ?? '';
  const res = await fetch(`${server.url}/producer/h5/qr/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ uuid, account: 'cookie-user', password: 'cookie-pass' }).toString(),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie') ?? '';
}

describeEngines("the phone page's cookie behind a TLS-terminating proxy", (engine) => {
  let proxied: TestServer;
  let direct: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({ engine, env: { TRUST_PROXY: '1' } });
    direct = await startTestServer({ engine });
    await addUser(proxied.app.db, 'cookie-user', 'cookie-pass');
    await addUser(direct.app.db, 'cookie-user', 'cookie-pass');
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  it('is Secure when the trusted proxy says https, and a client cannot claim https itself', async () => {
    expect(await confirmCookie(proxied, { 'x-forwarded-proto': 'https' })).toMatch(/;\s*Secure/i);
    expect(await confirmCookie(proxied, {})).not.toMatch(/;\s*Secure/i);
    // Without TRUST_PROXY the header is the client's word: plain HTTP stays plain.
    expect(await confirmCookie(direct, { 'x-forwarded-proto': 'https' })).not.toMatch(/;\s*Secure/i);
  });
});

describeEngines('nicknames', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it.each([
    ['a right-to-left override', 'Lin\u202Eetadpu', /文字方向字符/],
    ['a bidi isolate', '\u2067林\u2069', /文字方向字符/],
    ['a line break', '林\n管理员', /控制字符/],
    ['a terminal escape', '\u001b[31m林', /控制字符/],
    [
      '100 KB of text',
      'a'.repeat(100_000),
      new RegExp(`^昵称最多 ${NICKNAME_MAX} 个字符，当前 100000 个 \\(.+\\)$`),
    ],
  ])('refuses %s with a message and writes nothing', async (_what, nickname, message) => {
    const account = `nick-${Math.random().toString(36).slice(2, 10)}`;
    await expect(createUser(server.app.db, { account, password: 'secret123', nickname })).rejects.toThrow(
      message,
    );
    const row = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('account', '=', account)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('accepts a Chinese name of up to the limit, emoji counted as one character each', async () => {
    const nickname = `林小${'😀'.repeat(NICKNAME_MAX - 2)}`;
    const user = await createUser(server.app.db, { account: 'long-name', password: 'secret123', nickname });
    expect(user.nickname).toBe(nickname);
  });
});

describe('users:add (SQLite)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-names-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('exits 1 with the reason for a 100 KB nickname', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const res = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(root, 'server/cli/users-add.ts'),
          'huge',
          'huge-pass',
          'x'.repeat(100_000),
        ],
        { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
        (err, _stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
      );
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`昵称最多 ${NICKNAME_MAX} 个字符`);
    expect(res.stderr.length).toBeLessThan(500);
  });
});
