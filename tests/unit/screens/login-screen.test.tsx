import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { readToken } from '../../../src/api/token';
import { setLang } from '../../../src/app/i18n';
import { LoginScreen } from '../../../src/app/screens/login/login-screen';
import { resetAccount } from '../../../src/app/stores/account';
import { json, type Seen, fixtureServerForFile } from '../api/fixture-server';
import { renderScreen } from './render-screen';

const user = { id: 'u1', account: 'demo', nickname: '演示学员', token: 'tok-1', expiresIn: 604800 };

const server = fixtureServerForFile();
beforeAll(async () => {
  // The screen loads `qrcode` lazily; importing it once here keeps vitest's first transform of it (seconds
  // on a loaded machine) out of whichever test runs first and its one-second waits.
  await import('qrcode');
});
beforeEach(() => setLang('zh'));
afterEach(() => {
  resetAccount();
  server.reset();
});

/** Each qrServer call's uuids carry its own prefix, so a poll left over from an earlier test is never mistaken for one of this test's codes. */
let qrServers = 0;

/**
 * QR codes are handed out on request; the n-th code the screen *polls* answers every poll with
 * `states[n]` (the last state repeats). Keyed on polls, not on requests: an earlier test's screen can
 * still have a code request on the wire when it unmounts, and the request reaches this test's handler
 * (it is never polled, so it takes no state). `polled` lists the codes polled, in order.
 */
function qrServer(
  states: string[],
  login?: (req: Seen) => { code: number; msg: string; data: unknown },
  origin = 'https://h5.example',
) {
  const prefix = `qr${qrServers++}-`;
  let issued = 0;
  const polled: string[] = [];
  server.handle((req, res) => {
    const path = req.url.pathname;
    if (path.endsWith('/qr_url')) {
      const uuid = `${prefix}${String(issued++).padStart(16, '0')}`;
      return json(res, {
        code: 200,
        msg: 'ok',
        data: { url: `${origin}/qr?uuid=${uuid}`, expiresIn: 120, pickupKey: `key-${uuid}` },
      });
    }
    if (path.endsWith('/get_wx_login_status')) {
      const uuid = req.url.searchParams.get('uuid') ?? '';
      if (!uuid.startsWith(prefix)) return json(res, { code: 404, msg: "not this test's code", data: null });
      if (!polled.includes(uuid)) polled.push(uuid);
      const state = states[Math.min(polled.indexOf(uuid), states.length - 1)];
      // Hold the poll briefly, as the long poll does, so the page is not flooded.
      return setTimeout(() => json(res, { code: 200, msg: 'ok', data: { status: false, state } }), 30);
    }
    if (path.endsWith('/login_pwd') && login) return json(res, login(req));
    json(res, { code: 404, msg: 'no such call', data: null });
  });
  return { polled };
}

const renderLogin = (onLoggedIn = vi.fn()) => {
  renderScreen(<LoginScreen part="prpt" onLoggedIn={onLoggedIn} />, '/prpt/login');
  return onLoggedIn;
};

describe('login screen: where the QR code points', () => {
  test('a code pointing at this computer itself says a phone cannot open it and what to set', async () => {
    qrServer(['waiting'], undefined, 'http://127.0.0.1:8080');
    renderLogin();
    expect(await screen.findByTestId('qr-loopback')).toHaveTextContent(
      '这个二维码指向本机（127.0.0.1:8080），手机打不开：请管理员把 PUBLIC_URL 设为本机的局域网地址',
    );
    await setLang('en');
    expect(await screen.findByTestId('qr-loopback')).toHaveTextContent(
      "This code points to this computer itself (127.0.0.1:8080), which a phone cannot open: ask the operator to set PUBLIC_URL to this machine's network address",
    );
  });

  test('localhost and [::1] count too; a LAN or public address says nothing', async () => {
    const { loopbackHost } = await import('../../../src/app/screens/login/qr-panel');
    expect(loopbackHost('http://localhost:5173/producer/h5/qr?uuid=x')).toBe('localhost:5173');
    expect(loopbackHost('http://[::1]:8080/qr')).toBe('[::1]:8080');
    expect(loopbackHost('http://127.1.2.3/qr')).toBe('127.1.2.3');
    expect(loopbackHost('http://192.168.1.20:8080/qr')).toBeNull();
    expect(loopbackHost('https://h5.example/qr')).toBeNull();
    expect(loopbackHost('')).toBeNull();
    qrServer(['waiting']);
    renderLogin();
    expect(await screen.findByText('请使用手机扫描二维码')).toBeInTheDocument();
    expect(screen.queryByTestId('qr-loopback')).not.toBeInTheDocument();
  });
});

describe('login screen: QR states in words', () => {
  test('waiting: the code is shown with its scan instruction', async () => {
    qrServer(['waiting']);
    renderLogin();
    expect(await screen.findByRole('img', { name: '登录二维码，请用手机扫描' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png/),
    );
    expect(await screen.findByText('请使用手机扫描二维码')).toBeInTheDocument();
  });

  test('the code says in steps what scanning does and why', async () => {
    qrServer(['waiting']);
    renderLogin();
    const steps = await screen.findByTestId('qr-steps');
    expect([...steps.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '用手机相机扫描二维码',
      '手机打开确认页：输入账号密码，或直接确认',
      '这块屏幕随即自动登录，密码不必在这里输入',
    ]);
  });

  test('scanned: says what to do on the phone and that this screen then logs in by itself', async () => {
    qrServer(['scanned']);
    renderLogin();
    expect(await screen.findByText('已扫码：请在手机上登录并确认，这里随即自动登录')).toBeInTheDocument();
  });

  test('expired: says so, then a fresh code replaces it by itself', async () => {
    const { polled } = qrServer(['expired', 'waiting']);
    renderLogin();
    expect(await screen.findByText('二维码已过期，正在刷新…')).toBeInTheDocument();
    expect(await screen.findByText('请使用手机扫描二维码', {}, { timeout: 4000 })).toBeInTheDocument();
    // The waiting code is a fresh one, polled in its turn, not the expired code again.
    await waitFor(() => expect(polled).toHaveLength(2));
  });
});

describe('login screen: account and password', () => {
  test('empty fields are named inline and nothing is sent', async () => {
    qrServer(['waiting']);
    const u = userEvent.setup();
    renderLogin();
    await u.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByRole('textbox', { name: '账号' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: '账号' })).toHaveAccessibleDescription('请输入账号');
    expect(screen.getByLabelText('密码', { selector: 'input' })).toHaveAccessibleDescription('请输入密码');
    expect(server.seen.some((r) => r.url.pathname.endsWith('/login_pwd'))).toBe(false);
  });

  test("the server's refusal is shown in the form; success stores the token and leaves", async () => {
    let attempt = 0;
    qrServer(['waiting'], () =>
      attempt++ === 0
        ? { code: 1001, msg: '账号或密码错误', data: null }
        : { code: 200, msg: 'ok', data: user },
    );
    const u = userEvent.setup();
    const onLoggedIn = renderLogin();
    await u.type(screen.getByRole('textbox', { name: '账号' }), 'demo');
    await u.type(screen.getByLabelText('密码', { selector: 'input' }), 'wrong');
    await u.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('账号或密码错误');
    expect(onLoggedIn).not.toHaveBeenCalled();

    await u.clear(screen.getByLabelText('密码', { selector: 'input' }));
    await u.type(screen.getByLabelText('密码', { selector: 'input' }), 'demo123456');
    await u.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(readToken()).toBe('tok-1');
    const body = JSON.parse(String(server.seen.filter((r) => r.url.pathname.endsWith('/login_pwd'))[1].body));
    expect(body).toEqual({ account: 'demo', password: 'demo123456' });
  });

  test('the password can be revealed and hidden again', async () => {
    qrServer(['waiting']);
    const u = userEvent.setup();
    renderLogin();
    const input = screen.getByLabelText('密码', { selector: 'input' });
    expect(input).toHaveAttribute('type', 'password');
    await u.click(screen.getByRole('button', { name: '显示密码' }));
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: '隐藏密码' })).toHaveAttribute('aria-pressed', 'true');
  });
});
