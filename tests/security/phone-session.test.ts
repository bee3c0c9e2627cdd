import { afterAll, beforeAll, expect, it } from 'vitest';
import { QR_PICKUP_HEADER, qrUrlData, wxLoginStatusData } from '../../src/api/contract';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The session a phone gets by confirming a QR login can be ended: it ends with the kiosk session it
 * signed in unless the learner chose to stay signed in on the phone, the phone page signs out, and
 * "sign out everywhere" ends every session of the learner (from the web app or the phone).
 */
const QR_URL = '/producer/site_products/qr_url';
const STATUS = '/producer/site_products/get_wx_login_status';
const LOGOUT = '/producer/site_products/logout';
const LOGOUT_ALL = '/producer/site_products/logout_all';
const FILMS = '/producer/active_relation_two/show_film_picture';

describeEngines("the phone's session can be ended", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await addUser(server.app.db, 'lin', 'lin-password', '林小明');
  });
  afterAll(() => server?.close());

  /** A kiosk shows a code, the phone confirms with the password; both sessions' tokens and the cookie. */
  async function qrLogin(form: Record<string, string> = {}) {
    const qr = qrUrlData.parse((await client(server.url).get(QR_URL)).body.data);
    const uuid = new URL(qr.url).searchParams.get('uuid') ?? '';
    const confirmed = await fetch(`${server.url}/producer/h5/qr/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ uuid, account: 'lin', password: 'lin-password', ...form }).toString(),
    });
    expect(confirmed.status).toBe(200);
    const cookie = confirmed.headers.get('set-cookie') ?? '';
    const phoneToken = /^user-token=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect(phoneToken).not.toBe('');
    const status = await client(server.url).get(
      STATUS,
      { uuid, wait: '0' },
      { [QR_PICKUP_HEADER]: qr.pickupKey },
    );
    const data = wxLoginStatusData.parse(status.body.data);
    expect(data.status).toBe(true);
    // The kiosk is told whose account it now holds, to show "signed in as … — not you? sign out".
    expect(data.userInfo).toMatchObject({ account: 'lin', nickname: '林小明' });
    return { kioskToken: data.token as string, phoneToken, cookie, page: await confirmed.text() };
  }
  const works = async (token: string) => {
    const c = client(server.url);
    c.setToken(token);
    return (await c.get(FILMS)).body.code === 200;
  };
  const phonePage = async (phoneToken: string) => {
    const qr = qrUrlData.parse((await client(server.url).get(QR_URL)).body.data);
    const res = await fetch(qr.url.replace(/^https?:\/\/[^/]+/, server.url), {
      headers: { cookie: `user-token=${phoneToken}` },
    });
    return res.text();
  };

  it('ends with the kiosk session it signed in, when the learner did not ask to stay signed in', async () => {
    const { kioskToken, phoneToken, cookie, page } = await qrLogin();
    // A browser-session cookie, and the page says what happens.
    expect(cookie).not.toMatch(/Max-Age/i);
    expect(page).toContain('电脑端退出时，这台手机也会退出');
    expect(await works(phoneToken)).toBe(true);
    expect(await phonePage(phoneToken)).toContain('将以 <b>林小明</b>');

    const kiosk = client(server.url);
    kiosk.setToken(kioskToken);
    expect((await kiosk.postJson(LOGOUT, {})).body.code).toBe(200);
    expect(await works(kioskToken)).toBe(false);
    expect(await works(phoneToken)).toBe(false);
    // The next scan asks for the password again instead of one tap.
    expect(await phonePage(phoneToken)).toContain('autocomplete="current-password"');
  });

  it('stays when the learner chose "stay signed in on this phone"', async () => {
    const { kioskToken, phoneToken, cookie } = await qrLogin({ keep: '1' });
    expect(cookie).toMatch(/Max-Age=604800/i);
    const kiosk = client(server.url);
    kiosk.setToken(kioskToken);
    await kiosk.postJson(LOGOUT, {});
    expect(await works(kioskToken)).toBe(false);
    expect(await works(phoneToken)).toBe(true);
  });

  it('the phone page signs the phone out, and only the phone', async () => {
    const { kioskToken, phoneToken } = await qrLogin({ keep: '1' });
    const res = await fetch(`${server.url}/producer/h5/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `user-token=${phoneToken}` },
      body: '',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('已在这台手机上退出登录');
    // The cookie is cleared on the phone pages' path.
    expect(res.headers.get('set-cookie') ?? '').toMatch(/^user-token=;.*Path=\/producer\/h5/i);
    expect(await works(phoneToken)).toBe(false);
    expect(await works(kioskToken)).toBe(true);
  });

  it('sign out everywhere, from the web app: every session of the learner ends, not others', async () => {
    const { kioskToken, phoneToken } = await qrLogin({ keep: '1' });
    const desk = client(server.url);
    const { token: deskToken } = await desk.login('lin', 'lin-password');
    await addUser(server.app.db, 'other', 'other-password');
    const { token: otherToken } = await client(server.url).login('other', 'other-password');

    const out = await desk.postJson(LOGOUT_ALL, {});
    expect(out.status).toBe(200);
    expect(out.body.msg).toBe('已在所有设备上退出登录');
    expect(out.body.data.ended).toBeGreaterThanOrEqual(3);
    for (const t of [kioskToken, phoneToken, deskToken]) expect(await works(t)).toBe(false);
    expect(await works(otherToken)).toBe(true);
    // Without a valid session it is the usual 1002.
    expect((await desk.postJson(LOGOUT_ALL, {})).body.code).toBe(1002);
  });

  it('sign out everywhere, from the phone page', async () => {
    const { kioskToken, phoneToken } = await qrLogin({ keep: '1' });
    const res = await fetch(`${server.url}/producer/h5/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `user-token=${phoneToken}` },
      body: 'everywhere=1',
    });
    expect(await res.text()).toContain('已在所有设备上退出登录');
    expect(await works(phoneToken)).toBe(false);
    expect(await works(kioskToken)).toBe(false);
  });
});
