import { ENGINE_FEATURES } from '../support/engine-features';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../support/browser';
import { startJourneyApp, type JourneyApp } from '../support/journey/app';
import { kioskPage, onPage, phonePage } from '../support/journey/contexts';
import { FILM, openFilm, watchAnswerAndSeeResult } from '../support/journey/flow';
import { loginByPassword } from '../support/journey/login';
import { ScreenChecks } from '../support/journey/screens';
import { zhText } from '../support/journey/text';

// Journey 1: part one from password login to the H5 report on a phone, in real Chromium
// against the production build served by the real server.
let app: JourneyApp;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  app = await startJourneyApp();
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const path = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

describe('journey 1: part one, password login to the report on a phone', () => {
  test('login → movies → cinema (plays) → answer → result → report → H5 link opens on a phone without login', async () => {
    const checks = new ScreenChecks('journey-1');
    const { page } = await kioskPage(browser, errors);

    await page.goto(`${app.origin}/prpo/movies`);
    await onPage(page, 'prpo/login');
    expect(path(page)).toBe(`/prpo/login?redirect=${encodeURIComponent('/prpo/movies')}`);
    await checks.check(page, 'login');
    await loginByPassword(page);
    // docs/browsers.md: what Chromium offers of what the product leans on, beside the other engines'.
    console.log(`[engines] chromium features ${JSON.stringify(await page.evaluate(ENGINE_FEATURES))}`);

    await onPage(page, 'prpo/movies');
    await page.getByRole('link', { name: new RegExp(FILM.title) }).waitFor();
    await checks.check(page, 'movies');
    await openFilm(page);

    await watchAnswerAndSeeResult(page, 'prpo', checks);
    await page
      .getByRole('link', { name: zhText('result.toReport') })
      .first()
      .click();

    await onPage(page, 'prpo/report');
    expect(path(page)).toMatch(/^\/prpo\/report\/[^/]+$/);
    const link = page.getByTestId('report-h5-link');
    await link.waitFor();
    await page.getByRole('img', { name: zhText('report.qrAlt') }).waitFor();
    await checks.check(page, 'report');
    const h5 = await link.getAttribute('href');
    expect(h5).toBeTruthy();

    // The learner's phone: a fresh browser context, no cookie, no login.
    const phone = await phonePage(browser, errors);
    try {
      expect(await phone.context.cookies()).toEqual([]);
      const res = await phone.page.goto(h5 as string);
      expect(res?.status()).toBe(200);
      expect(new URL(phone.page.url()).pathname).not.toMatch(/login/);
      await phone.page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
      await phone.page.getByText('答题得分').waitFor();
      // The page speaks one language: the phone's (zh-CN here), or the kiosk's through ?lang=.
      expect(await phone.page.locator('html').getAttribute('lang')).toBe('zh-CN');
      expect(await phone.page.locator('body').textContent()).not.toContain(FILM.titleEn);
      await checks.check(phone.page, 'h5-report');
    } finally {
      await phone.context.close();
    }

    await page.context().close();
    expect(errors).toEqual([]);
    checks.assertAccessible();
  });
});
