import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, expect, test } from 'vitest';
import { readToken, writeToken } from '../../../src/api/token';
import { LANG_STORAGE_KEY, setLang } from '../../../src/app/i18n';
import { completeLogin, isLoggedIn, userInfo } from '../../../src/app/stores/account';
import { reportState } from '../../../src/app/screens/report/report-state';
import { recordAttempt, subTitlesScores } from '../../../src/app/stores/takes/sub-titles-scores';
import { useLogout } from '../../../src/app/stores/use-logout';
import { fixtureServerForFile } from '../api/fixture-server';

// The logout call goes to a real HTTP server on the page's origin.
const server = fixtureServerForFile();

let logout: (to?: string) => void = () => {};
function Grab() {
  logout = useLogout();
  return null;
}

function mount(path: string) {
  const router = createMemoryRouter(
    [
      { path: '*', element: <Grab /> },
      { path: '/', element: <Grab /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  setLang('zh');
  server.reset();
});

function seed() {
  completeLogin('tok-1', { id: 'u1', account: 'a', nickname: 'n', token: 'tok-1', expiresIn: 604800 });
  reportState('prpo').reportH5Url.value = 'https://h5/report';
  recordAttempt('s1', '{}', 'blob:1');
  localStorage.setItem('something', '1');
  sessionStorage.setItem('draft', '1');
}

test('logout clears local and session storage, the stores and the token cookie, then goes to /', async () => {
  const router = mount('/prpt/report');
  seed();
  expect(readToken()).toBe('tok-1');
  await act(async () => logout());
  expect(router.state.location.pathname).toBe('/');
  expect(readToken()).toBeNull();
  expect(isLoggedIn.value).toBe(false);
  expect(userInfo.value).toBeNull();
  expect(reportState('prpo').reportH5Url.value).toBe('');
  expect(subTitlesScores.value).toEqual({});
  expect(localStorage.getItem('something')).toBeNull();
  expect(sessionStorage.length).toBe(0);
});

test('logout goes to a chosen path and keeps the kiosk language', async () => {
  await setLang('en');
  const router = mount('/prpo/movies');
  seed();
  writeToken('tok-2');
  await act(async () => logout('/prpo/standby'));
  expect(router.state.location.pathname).toBe('/prpo/standby');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
  expect(localStorage.length).toBe(1);
});

test('logout asks the server to revoke the session, with the token it had, before wiping', async () => {
  const router = mount('/prpt/movies');
  seed();
  writeToken('tok-revoke');
  await act(async () => logout('/prpt/standby'));
  expect(router.state.location.pathname).toBe('/prpt/standby');
  expect(readToken()).toBeNull();
  // Earlier tests' logout calls may still arrive: wait for this one's.
  const revoke = () => server.seen.find((r) => r.headers.token === 'tok-revoke');
  while (!revoke()) await new Promise((resolve) => setImmediate(resolve));
  expect(revoke()?.method).toBe('POST');
  expect(revoke()?.url.pathname).toBe('/producer/site_products/logout');
});
