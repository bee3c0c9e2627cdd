import { afterAll, beforeAll, expect, it } from 'vitest';
import { qrUrlData, wxLoginStatusData } from '../../src/api/contract';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';

const QR_URL = '/producer/site_products/qr_url';
const STATUS = '/producer/site_products/get_wx_login_status';

describeEngines('QR login confirmed on a phone', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
  });
  afterAll(() => server?.close());

  /** The pickup key of each request this test made, as the kiosk that asked for it holds it. */
  const keys = new Map<string, string>();
  async function newRequest() {
    const res = await client(server.url).get(QR_URL);
    expect(res.body.code).toBe(200);
    const data = qrUrlData.parse(res.body.data);
    const link = new URL(data.url);
    const uuid = link.searchParams.get('uuid')!;
    keys.set(uuid, data.pickupKey);
    return { data, link, uuid };
  }
  const status = async (uuid: string, wait?: number) => {
    const key = keys.get(uuid);
    const res = await client(server.url).get(
      STATUS,
      { uuid, ...(wait !== undefined ? { wait: String(wait) } : {}) },
      key ? { 'qr-pickup-key': key } : {},
    );
    expect(res.body.code).toBe(200);
    return wxLoginStatusData.parse(res.body.data);
  };
  const phonePost = (path: string, form: Record<string, string>, cookie?: string) =>
    fetch(`${server.url}/producer/h5/qr/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(form).toString(),
    });

  it('qr_url links to the phone confirm page with a 128-bit uuid, valid 2 minutes', async () => {
    const { data, link, uuid } = await newRequest();
    expect(data.expiresIn).toBe(120);
    expect(link.pathname).toBe('/producer/h5/qr');
    expect(link.host).toBe(new URL(server.url).host);
    expect(uuid).toMatch(/^[0-9a-f]{32}$/);
    // The pickup key is the screen's alone: 256 random bits, not in the link the QR code shows.
    expect(data.pickupKey).toMatch(/^[\w-]{43}$/);
    expect(data.url).not.toContain(data.pickupKey);
    expect((await status(uuid)).state).toBe('waiting');
  });

  it('runs the full flow: waiting → scanned → confirmed → token exactly once', async () => {
    const { link, uuid } = await newRequest();
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('确认登录');
    expect(html).toContain('name="password"');
    expect(html).not.toMatch(/<script/i);
    expect(await status(uuid)).toEqual({ status: false, state: 'scanned' });

    // Wrong password on the phone: the page says so and the request stays open.
    const wrong = await phonePost('confirm', { uuid, account: 'demo', password: 'bad-password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('账号或密码错误');
    expect((await status(uuid)).state).toBe('scanned');

    const ok = await phonePost('confirm', { uuid, account: 'demo', password: 'demo123456' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('已确认');
    expect(ok.headers.get('set-cookie')).toMatch(/user-token=/);

    const first = await status(uuid);
    expect(first.status).toBe(true);
    expect(first.state).toBe('confirmed');
    expect(first.token).toBeTruthy();
    expect(first.userInfo).toMatchObject({ account: 'demo', nickname: '演示学员', token: first.token });
    // The token works on a protected call.
    const films = await client(server.url).get('/producer/active_relation_two/show_film_picture', undefined, {
      token: first.token!,
    });
    expect(films.body.code).toBe(200);

    const second = await status(uuid);
    expect(second).toEqual({ status: false, state: 'confirmed' });

    // Past its two minutes, the request answers expired.
    await server.app.db
      .updateTable('qr_logins')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('uuid', '=', uuid)
      .execute();
    expect(await status(uuid)).toEqual({ status: false, state: 'expired' });
  });

  it('long-polls until the phone confirms (another connection confirms meanwhile)', async () => {
    const { uuid } = await newRequest();
    await fetch(`${server.url}/producer/h5/qr?uuid=${uuid}`);
    const polling = status(uuid, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${server.url}/producer/h5/qr/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uuid, account: 'demo', password: 'demo123456' }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
    const answer = await polling;
    expect(answer.status).toBe(true);
    expect(answer.token).toBeTruthy();
  });

  it("reuses the phone's own session cookie: one tap to confirm", async () => {
    const phone = await client(server.url).login('demo', 'demo123456');
    const cookie = `user-token=${phone.token}`;
    const { link, uuid } = await newRequest();
    const page = await (await fetch(link, { headers: { cookie } })).text();
    expect(page).toContain('演示学员');
    expect(page).not.toContain('name="password"');
    const ok = await phonePost('confirm', { uuid }, cookie);
    expect(ok.status).toBe(200);
    expect((await status(uuid)).status).toBe(true);
  });

  it('cancel on the phone ends the request', async () => {
    const { uuid } = await newRequest();
    const res = await phonePost('cancel', { uuid });
    expect(res.status).toBe(200);
    expect(await status(uuid)).toEqual({ status: false, state: 'cancelled' });
    // A cancelled request cannot be confirmed afterwards.
    const late = await phonePost('confirm', { uuid, account: 'demo', password: 'demo123456' });
    expect(late.status).toBe(409);
    expect((await status(uuid)).status).toBe(false);
  });

  it('an expired request shows a clear page and cannot be confirmed', async () => {
    const { link, uuid } = await newRequest();
    await server.app.db
      .updateTable('qr_logins')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('uuid', '=', uuid)
      .execute();
    const page = await fetch(link);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('二维码已过期');
    const late = await phonePost('confirm', { uuid, account: 'demo', password: 'demo123456' });
    expect(late.status).toBe(410);
    expect(await status(uuid)).toEqual({ status: false, state: 'expired' });
  });

  it('unknown uuids get a clear answer, malformed ones a validation error', async () => {
    expect(await status('0123456789abcdef0123456789abcdef')).toEqual({ status: false, state: 'unknown' });
    const bad = await client(server.url).get(STATUS, { uuid: 'short' });
    expect(bad.body.code).toBe(400);
    expect(bad.body.data.field).toBe('uuid');
    const page = await fetch(`${server.url}/producer/h5/qr?uuid=0123456789abcdef0123456789abcdef`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('二维码无效');
  });
});

describeEngines('QR links honour the public address', (engine) => {
  let configured: TestServer;
  let derived: TestServer;
  beforeAll(async () => {
    configured = await startTestServer({ engine, env: { PUBLIC_URL: 'https://learn.example.com/' } });
    // Forwarded headers count only from a trusted proxy: here the test itself, on loopback.
    derived = await startTestServer({ engine, env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await configured?.close();
    await derived?.close();
  });

  it('uses PUBLIC_URL when set', async () => {
    const res = await client(configured.url).get(QR_URL);
    expect(res.body.data.url).toMatch(
      /^https:\/\/learn\.example\.com\/producer\/h5\/qr\?uuid=[0-9a-f]{32}&lang=zh$/,
    );
  });

  it('otherwise derives it from X-Forwarded-Host and -Proto', async () => {
    const res = await client(derived.url).get(QR_URL, undefined, {
      'x-forwarded-host': 'films.example.org',
      'x-forwarded-proto': 'https',
    });
    expect(res.body.data.url).toMatch(/^https:\/\/films\.example\.org\/producer\/h5\/qr\?uuid=/);
  });
});
