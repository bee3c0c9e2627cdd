import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firstZh } from '../../src/app/i18n/messages/first.zh';
import { ROUTES } from '../../src/app/lib/route-table';
import { launchChromium } from '../support/browser';
import { serveBuiltApp } from '../support/static-app';

// Every route of src/app/lib/route-table.ts in real Chromium against the production build, logged out.
const zh: Record<string, string> = firstZh;
const titleOf = (key: string) => `${zh[key]} · ${zh['app.name']}`;
const concrete = (pattern: string) => pattern.replace(':id', '7');

let app: Awaited<ReturnType<typeof serveBuiltApp>>;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  app = await serveBuiltApp();
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function visit(path: string) {
  await page.goto(app.origin + path);
  // `data-page` appears once the route's own page module has loaded and rendered (LazyPage).
  const shown = page.locator('[data-page]').first();
  await shown.waitFor();
  const url = new URL(page.url());
  return {
    path: url.pathname + url.search,
    title: await page.title(),
    page: await shown.getAttribute('data-page'),
  };
}

describe('logged out, every route of the table', () => {
  for (const r of ROUTES.filter((x) => x.guard === 'public')) {
    test(`public ${r.path} renders its own page`, async () => {
      const seen = await visit(concrete(r.path));
      expect(seen.path).toBe(concrete(r.path));
      expect(seen.page).toBe(r.page);
      expect(seen.title).toBe(titleOf(r.title));
      expect(await page.getAttribute('[data-layout]', 'data-layout')).toBe(r.area);
    });
  }

  for (const r of ROUTES.filter((x) => x.guard === 'auth')) {
    test(`guarded ${r.path} lands on /${r.area}/login`, async () => {
      const seen = await visit(concrete(r.path));
      expect(seen.path).toBe(`/${r.area}/login?redirect=${encodeURIComponent(concrete(r.path))}`);
      expect(seen.page).toBe(`${r.area}/login`);
      expect(seen.title).toBe(titleOf(`page.${r.area}.login`));
    });
  }

  test('/ lands on /prpt', async () => {
    const seen = await visit('/');
    expect(seen.path).toBe('/prpt');
    expect(seen.page).toBe('prpt/home');
    expect(seen.title).toBe(titleOf('page.prpt.home'));
  });

  test('an unknown path shows the 404 page with a link home', async () => {
    const seen = await visit('/no/such/page');
    expect(seen.title).toBe(titleOf('page.notFound'));
    expect(seen.page).toBe('not-found');
    // a way home: some link on the page leads to / (which is /prpt) or a part home
    const home = page.locator(
      '[data-page="not-found"] a[href="/"], [data-page="not-found"] a[href="/prpt"], [data-page="not-found"] a[href="/prpo"]',
    );
    await home.first().click();
    // the part homes are /prpt (public) and /prpo (behind login): either way the 404 is left
    await page.locator('[data-page]:not([data-page="not-found"])').first().waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/prp[ot](\/login)?$/);
  });

  test('no script errors on any of those pages', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe('a route chunk that fails to load', () => {
  test('shows a readable error naming the chunk, and Retry loads the page', async () => {
    const fresh = await browser.newPage();
    try {
      let block = true;
      // Fail the intro screen's chunk the first time only (the entry stays, so the error view can render).
      await fresh.route(/\/assets\/intro-[^/]+\.js$/, (route) =>
        block ? route.fulfill({ status: 404, body: '' }) : route.continue(),
      );
      await fresh.goto(`${app.origin}/prpt`);
      await fresh.locator('[data-page]').first().waitFor();
      // Navigate in-app so only the intro chunk is fetched lazily.
      // (a string, not a function: this file is type-checked without the DOM lib)
      await fresh.evaluate(
        "history.pushState({}, '', '/prpt/intro'); dispatchEvent(new PopStateEvent('popstate'))",
      );
      const alert = fresh.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/页面加载失败[\s\S]*prpt\/intro/);
      block = false;
      await fresh.getByRole('button', { name: '重试' }).click();
      await fresh.waitForFunction(`document.title === ${JSON.stringify(titleOf('page.prpt.intro'))}`);
    } finally {
      await fresh.close();
    }
  });
});

describe('a stored choice of English', () => {
  test('the first render is already in English (its messages load before it), then each page too', async () => {
    const context = await browser.newContext();
    const fresh = await context.newPage();
    try {
      // Before any script of the app: the stored choice, and a note of the header as first inserted
      // (observer callbacks run before the browser paints).
      // (a string, not a function: this file is type-checked without the DOM lib)
      await fresh.addInitScript(`
        localStorage.setItem('app.lang', 'en');
        new MutationObserver((_, observer) => {
          const header = document.querySelector('[data-layout-header] .layout-brand');
          if (!header) return;
          window.__firstHeader = { text: header.textContent, lang: document.documentElement.lang };
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      `);
      await fresh.goto(`${app.origin}/prpt`);
      await fresh.locator('[data-page="prpt/home"]').waitFor();
      expect(await fresh.evaluate('window.__firstHeader')).toEqual({
        text: 'Film Speech Trainer · Part two',
        lang: 'en',
      });
      expect(await fresh.title()).toBe('Part two · Home · Film Speech Trainer');
      await fresh.goto(`${app.origin}/prpt/no-such-page`);
      await fresh.getByRole('link', { name: 'Back to the Film dubbing home' }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('session expiry (code 1002) in the production build', () => {
  test('any call answering 1002: warning shown, token and storage cleared, prefix-aware login with a way back', async () => {
    const context = await browser.newContext();
    const fresh = await context.newPage();
    try {
      await context.addCookies([{ name: 'user-token', value: 'stale-token', url: app.origin }]);
      // Every producer call answers "login expired", as the real service does for an unknown token.
      await fresh.route(/\/producer\//, (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ code: 1002, msg: '登录信息已失效，请重新登录', data: null }),
        }),
      );
      await fresh.goto(`${app.origin}/prpt/movies?sort=new`);
      await fresh.waitForURL(
        `${app.origin}/prpt/login?redirect=${encodeURIComponent('/prpt/movies?sort=new')}`,
      );
      await fresh.getByRole('alert').filter({ hasText: '登录信息已失效' }).first().waitFor();
      const cookies = await context.cookies(app.origin);
      expect(cookies.find((c) => c.name === 'user-token')).toBeUndefined();
      expect(await fresh.evaluate('sessionStorage.length')).toBe(0);
    } finally {
      await context.close();
    }
  });
});
