import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, expect, test } from 'vitest';
import { readToken } from '../../../src/api/token';
import { setLang } from '../../../src/app/i18n';
import { ScreenTools } from '../../../src/app/layouts/screen-tools';
import { completeLogin, resetAccount } from '../../../src/app/stores/account';
import { json, fixtureServerForFile } from '../api/fixture-server';

// After a QR login the kiosk names the account that was signed in, with "not you? sign out": whoever
// scans a kiosk's code first signs it in. Sign out everywhere ends every session of the learner.
const server = fixtureServerForFile();
afterEach(() => {
  resetAccount();
  server.reset();
  setLang('zh');
});

const info = (token: string) => ({ id: 'u1', account: 'lin', nickname: '林小明', token, expiresIn: 604800 });

function mount() {
  const router = createMemoryRouter(
    [
      { path: '/prpt/movies', element: <ScreenTools area="prpt" /> },
      { path: '*', element: <p>standby</p> },
    ],
    { initialEntries: ['/prpt/movies'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

test('after a QR login: "signed in as" the account, and "not you? sign out" signs this screen out', async () => {
  server.handle((_req, res) => json(res, { code: 200, msg: 'ok', data: null }));
  await act(async () => completeLogin('tok-qr', info('tok-qr'), { viaQr: true }));
  const router = mount();
  expect(screen.getByText('已登录为 林小明')).toBeInTheDocument();
  await userEvent.setup().click(screen.getByRole('button', { name: '不是你？退出' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prpt/standby'));
  expect(readToken()).toBeNull();
  await server.waitForRequests(1);
  expect(server.seen[0].url.pathname).toBe('/producer/site_products/logout');
  expect(server.seen[0].headers.token).toBe('tok-qr');
});

test('after a password login the name alone, and log out as before', async () => {
  await act(async () => completeLogin('tok-pw', info('tok-pw')));
  mount();
  expect(screen.getByText('林小明')).toBeInTheDocument();
  expect(screen.queryByText(/已登录为/)).toBeNull();
  expect(screen.getByRole('button', { name: '退出登录' })).toBeInTheDocument();
});

test('sign out everywhere asks the server to end every session, with the token it had', async () => {
  server.handle((_req, res) => json(res, { code: 200, msg: 'ok', data: { ended: 3 } }));
  await act(async () => completeLogin('tok-all', info('tok-all')));
  const router = mount();
  await userEvent.setup().click(screen.getByRole('button', { name: '退出所有设备' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/prpt/standby'));
  await server.waitForRequests(1);
  expect(server.seen[0].method).toBe('POST');
  expect(server.seen[0].url.pathname).toBe('/producer/site_products/logout_all');
  expect(server.seen[0].headers.token).toBe('tok-all');
});
