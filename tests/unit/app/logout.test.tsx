import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, expect, test } from 'vitest';
import { readToken, writeToken } from '../../../src/api/token';
import { LANG_STORAGE_KEY, setLang } from '../../../src/app/i18n';
import { completeLogin, isLoggedIn, userInfo } from '../../../src/app/stores/account';
import * as prpo from '../../../src/app/stores/prpo';
import * as prpt from '../../../src/app/stores/prpt';
import { useLogout } from '../../../src/app/stores/use-logout';

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

afterEach(() => setLang('zh'));

function seed() {
  completeLogin('tok-1', { id: 'u1', account: 'a', nickname: 'n', token: 'tok-1', expiresIn: 604800 });
  prpo.reportH5Url.value = 'https://h5/report';
  prpt.recordAttempt('s1', '{}', 'blob:1');
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
  expect(prpo.reportH5Url.value).toBe('');
  expect(prpt.subTitlesScores.value).toEqual({});
  expect(localStorage.getItem('something')).toBeNull();
  expect(sessionStorage.length).toBe(0);
});

test('logout goes to a chosen path and keeps the kiosk language', async () => {
  setLang('en');
  const router = mount('/prpo/movies');
  seed();
  writeToken('tok-2');
  await act(async () => logout('/prpo/standby'));
  expect(router.state.location.pathname).toBe('/prpo/standby');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
  expect(localStorage.length).toBe(1);
});
