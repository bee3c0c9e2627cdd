import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { removeToken, writeToken } from '../../../src/api/token';
import { type MessageKey, t } from '../../../src/app/i18n';
import { NOT_FOUND, ROUTES, screenFile } from '../../../src/app/lib/route-table';
import { PAGES, routes } from '../../../src/app/router/routes';
import { Toasts } from '../../../src/app/layouts/toasts';
import { useAfterLogin } from '../../../src/app/lib/use-after-login';
import { RequireAuth } from '../../../src/app/router/auth-guard';
import { loginWithPassword, resetAccount, syncToken } from '../../../src/app/stores/account';
import { clearToasts } from '../../../src/app/stores/toast';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { concrete, loadScreenModules, renderAppAt } from './render-app';

const heading = (key: string) => t(key as MessageKey);

const server = fixtureServerForFile();
beforeAll(async () => {
  await loadScreenModules();
});
afterEach(() => {
  vi.restoreAllMocks();
  resetAccount();
  clearToasts();
  server.reset();
});

test('every route of the table has a page chunk, and nothing else does', () => {
  expect(Object.keys(PAGES).sort()).toEqual([...ROUTES.map((r) => r.page), NOT_FOUND.page].sort());
  expect(ROUTES).toHaveLength(20);
});

test('every screen module serves a route of the table, and every route has its screen module', () => {
  const modules = Object.keys(import.meta.glob('../../../src/app/screens/*/*-screen.tsx'))
    .map((k) => k.replace('../../../', ''))
    .sort();
  const screens = [...new Set([...ROUTES.map((r) => r.screen), NOT_FOUND.screen])];
  expect(modules).toEqual(screens.map(screenFile).sort());
});

test('the tree follows the table: area layout or wrapper route, and the guard', () => {
  for (const r of ROUTES) {
    const chain = matchRoutes(routes, r.path.replace(':id', '7'))?.map((m) => m.route) ?? [];
    expect(chain.at(-1)?.element, r.path).toBeDefined();
    // `area` rows are children of `/prpo` or `/prpt`; `wrapper` rows get the layout elsewhere.
    expect(
      chain.some((x) => x.path === `/${r.area}`),
      r.path,
    ).toBe(r.layout === 'area');
    expect(
      chain.some((x) => (x.element as ReactElement | undefined)?.type === RequireAuth),
      r.path,
    ).toBe(r.guard === 'auth');
  }
  expect(ROUTES.filter((r) => r.layout === 'wrapper').map((r) => r.path)).toEqual([
    '/prpt/standby',
    '/prpt/intro',
  ]);
});

/** Resolves once the route's own page module has loaded and rendered (LazyPage adds `data-page`). */
const pageShown = (page: string) =>
  waitFor(() => expect(document.querySelector(`[data-page="${page}"]`)).not.toBeNull());

describe('logged out', () => {
  test.each(ROUTES.filter((r) => r.guard === 'public'))(
    'public $path renders its own page, title and layout',
    async (r) => {
      const { here } = renderAppAt(concrete(r.path));
      await pageShown(r.page);
      expect(here()).toBe(concrete(r.path));
      expect(document.title).toBe(`${heading(r.title)} · ${t('app.name')}`);
      expect(document.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe(r.area);
    },
  );

  test.each(ROUTES.filter((r) => r.guard === 'auth'))(
    'guarded $path goes to {prefix}/login with a way back',
    async (r) => {
      const url = `${concrete(r.path)}?from=test`;
      const { here } = renderAppAt(url);
      await pageShown(`${r.area}/login`);
      expect(here()).toBe(`/${r.area}/login?redirect=${encodeURIComponent(url)}`);
      expect(document.querySelector(`[data-page="${r.page}"]`)).toBeNull();
    },
  );

  test('/ lands on /prpt (the prpt home, public)', async () => {
    const { here } = renderAppAt('/');
    await pageShown('prpt/home');
    expect(here()).toBe('/prpt');
  });

  test('an unknown path shows the 404 page with a way home', async () => {
    renderAppAt('/prpo/nothing/here');
    await pageShown('not-found');
    expect(document.title).toBe(`${t('page.notFound')} · ${t('app.name')}`);
    const homes = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(homes.some((h) => h === '/' || h === '/prpt' || h === '/prpo')).toBe(true);
  });
});

describe('logged in', () => {
  test.each(ROUTES)('$path renders its own page in its part layout', async (r) => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // pages may load data the fixture lacks
    writeToken('token-1');
    syncToken();
    const { here } = renderAppAt(concrete(r.path));
    await pageShown(r.page);
    expect(here()).toBe(concrete(r.path));
    expect(document.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe(r.area);
  });
});

/** A bare login page using the app's login action and return-to hook (the real page is the screens' work). */
function TestLogin() {
  const done = useAfterLogin();
  return (
    <button type="button" onClick={() => loginWithPassword('learner', 'pw').then(done, () => {})}>
      log in
    </button>
  );
}

function renderGuarded(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/prpt/login', element: <TestLogin /> },
      { path: '/prpo/login', element: <TestLogin /> },
      { element: <RequireAuth />, children: [{ path: '/prpt/dub/:id', element: <h1>dub page</h1> }] },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return () => router.state.location.pathname + router.state.location.search;
}

test('after login the learner returns to the page the guard stopped', async () => {
  server.handle((req, res) => {
    const body = JSON.parse(req.body.toString('utf8') || '{}');
    if (body.account === 'learner' && body.password === 'pw') {
      json(res, {
        code: 200,
        msg: 'ok',
        data: { id: 'u1', account: 'learner', nickname: '小明', token: 'tok-9', expiresIn: 604800 },
      });
    } else json(res, { code: 1001, msg: '账号或密码错误', data: null });
  });
  const here = renderGuarded('/prpt/dub/7?line=3');
  expect(here()).toBe('/prpt/login?redirect=%2Fprpt%2Fdub%2F7%3Fline%3D3');
  await userEvent.click(screen.getByRole('button', { name: 'log in' }));
  expect(await screen.findByRole('heading', { name: 'dub page' })).toBeInTheDocument();
  expect(here()).toBe('/prpt/dub/7?line=3');
  expect(document.cookie).toContain('user-token=tok-9');
});

test('a failed login shows the server message and stays on the login page', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.handle((_req, res) => json(res, { code: 1001, msg: '账号或密码错误', data: null }));
  const here = renderGuarded('/prpt/dub/7');
  render(<Toasts />);
  await userEvent.click(screen.getByRole('button', { name: 'log in' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('账号或密码错误');
  expect(here()).toBe('/prpt/login?redirect=%2Fprpt%2Fdub%2F7');
});

test('a token removed elsewhere (another tab, cookie expiry) sends the learner to login on return to the tab', async () => {
  writeToken('token-1');
  syncToken();
  const { here } = renderAppAt('/prpt/movies');
  await pageShown('prpt/movies');
  removeToken(); // as another tab's logout would
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
  await pageShown('prpt/login');
  expect(here()).toBe('/prpt/login?redirect=%2Fprpt%2Fmovies');
});
