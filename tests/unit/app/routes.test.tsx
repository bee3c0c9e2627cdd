import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { writeToken } from '../../../src/api/token';
import { type MessageKey, t } from '../../../src/app/i18n';
import { PAGES } from '../../../src/app/router/pages';
import { NOT_FOUND_PAGE, ROUTES } from '../../../src/app/router/route-table';
import { resetAccount, syncToken } from '../../../src/app/stores/account';
import { clearToasts } from '../../../src/app/stores/toast';
import { type FixtureServer, json, movePageTo, startFixtureServer } from '../api/fixture-server';
import { concrete, renderAppAt } from './render-app';

const heading = (key: string) => t(key as MessageKey);

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  movePageTo(server.origin);
});
afterEach(() => {
  resetAccount();
  clearToasts();
  server.reset();
});
afterAll(() => server.close());

test('every route of the table has a page chunk, and nothing else does', () => {
  expect(Object.keys(PAGES).sort()).toEqual([...ROUTES.map((r) => r.page), NOT_FOUND_PAGE].sort());
  expect(ROUTES).toHaveLength(20);
});

describe('logged out', () => {
  test.each(ROUTES.filter((r) => !r.auth))(
    'public $path renders its own page, title and layout',
    async (r) => {
      const { here } = renderAppAt(concrete(r.path));
      expect(await screen.findByRole('heading', { level: 1, name: heading(r.titleKey) })).toBeInTheDocument();
      expect(here()).toBe(concrete(r.path));
      expect(document.title).toBe(`${heading(r.titleKey)} · ${t('app.name')}`);
      expect(document.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe(r.part);
    },
  );

  test.each(ROUTES.filter((r) => r.auth))(
    'guarded $path goes to {prefix}/login with a way back',
    async (r) => {
      const url = `${concrete(r.path)}?from=test`;
      const { here } = renderAppAt(url);
      expect(
        await screen.findByRole('heading', { level: 1, name: heading(`page.${r.part}.login`) }),
      ).toBeInTheDocument();
      expect(here()).toBe(`/${r.part}/login?redirect=${encodeURIComponent(url)}`);
    },
  );

  test('/ lands on /prpt (the prpt home, public)', async () => {
    const { here } = renderAppAt('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: heading('page.prpt.home') }),
    ).toBeInTheDocument();
    expect(here()).toBe('/prpt');
  });

  test('an unknown path shows the 404 page with a way home', async () => {
    renderAppAt('/prpo/nothing/here');
    expect(await screen.findByRole('heading', { level: 1, name: t('page.notFound') })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('notFound.home') })).toHaveAttribute('href', '/');
  });
});

describe('logged in', () => {
  test.each(ROUTES)('$path renders its own page in its part layout', async (r) => {
    writeToken('token-1');
    syncToken();
    renderAppAt(concrete(r.path));
    expect(await screen.findByRole('heading', { level: 1, name: heading(r.titleKey) })).toBeInTheDocument();
    expect(document.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe(r.part);
  });
});

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
  const { here } = renderAppAt('/prpt/dub/7?line=3');
  await screen.findByRole('heading', { level: 1, name: heading('page.prpt.login') });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(t('login.account')), 'learner');
  await user.type(screen.getByLabelText(t('login.password')), 'pw');
  await user.click(screen.getByRole('button', { name: t('login.submit') }));
  expect(
    await screen.findByRole('heading', { level: 1, name: heading('page.prpt.dub') }),
  ).toBeInTheDocument();
  expect(here()).toBe('/prpt/dub/7?line=3');
  expect(document.cookie).toContain('user-token=tok-9');
});

test('a failed login shows the server message and stays on the login page', async () => {
  server.handle((_req, res) => json(res, { code: 1001, msg: '账号或密码错误', data: null }));
  const { here } = renderAppAt('/prpo/movies');
  await screen.findByRole('heading', { level: 1, name: heading('page.prpo.login') });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(t('login.account')), 'learner');
  await user.type(screen.getByLabelText(t('login.password')), 'wrong');
  await user.click(screen.getByRole('button', { name: t('login.submit') }));
  expect(await screen.findByRole('alert')).toHaveTextContent('账号或密码错误');
  await waitFor(() => expect(here()).toBe('/prpo/login?redirect=%2Fprpo%2Fmovies'));
});
