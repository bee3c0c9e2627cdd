import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { journeyForFile } from '../support/journey/app';
import { kioskPage, onPage } from '../support/journey/contexts';
import { FILM, openFilm } from '../support/journey/flow';
import { loginByPassword } from '../support/journey/login';
import { ScreenChecks } from '../support/journey/screens';
import { zhText } from '../support/journey/text';

// Journey 3: the session ends on the server while the learner is mid-journey. The next call
// answers 1002; the app warns 登录信息已失效 (docs/api.md, code 1002), clears the token and local data, lands on the
// login page of the part it was in, and logging in again returns to the page the learner was on.
const errors: string[] = [];

const journey = journeyForFile();

const pathOf = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

/** Ends every session server-side, as an expiry or a logout elsewhere would. */
async function expireSessionsOnServer(): Promise<void> {
  await journey.app.server.app.db.deleteFrom('sessions').execute();
}

const tokenCookie = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'user-token')?.value;

async function loginInto(page: Page, part: 'prpo' | 'prpt'): Promise<void> {
  await page.goto(`${journey.app.origin}/${part}/movies`);
  await onPage(page, `${part}/login`);
  await loginByPassword(page);
  await onPage(page, `${part}/movies`);
  expect(await tokenCookie(page)).toBeTruthy();
}

describe('journey 3: a session that expires mid-journey', () => {
  test('prpt: the next call answers 1002 → /prpt/login with 登录信息已失效 → login again returns to the page', async () => {
    const checks = new ScreenChecks('journey-3');
    const { context, page } = await kioskPage(journey.browser, errors);
    await loginInto(page, 'prpt');
    await openFilm(page);
    await onPage(page, 'prpt/cinema');
    await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
    const filmId = pathOf(page).split('/').at(-1) as string;
    await page.evaluate("sessionStorage.setItem('journey.marker', 'left by the expired session')");

    await expireSessionsOnServer();
    const expired = page.waitForResponse((r) => r.url().includes('/active_relation_two/get_film_info'));
    await page
      .getByRole('link', { name: zhText('cinema.toQuestions') })
      .first()
      .click();
    const body = (await (await expired).json()) as { code: number };
    expect(body.code).toBe(1002);

    await onPage(page, 'prpt/login');
    const answerPath = `/prpt/answer/${filmId}`;
    expect(pathOf(page)).toBe(`/prpt/login?redirect=${encodeURIComponent(answerPath)}`);
    await page
      .getByRole('alert')
      .filter({ hasText: zhText('toast.sessionExpired') })
      .waitFor();
    expect(await tokenCookie(page)).toBeUndefined();
    // Everything is wiped; only the kiosk's UI language is written back (a device setting, not user data).
    expect(await page.evaluate<string[]>('Object.keys(localStorage)')).toEqual(['app.lang']);
    expect(await page.evaluate<string | null>("sessionStorage.getItem('journey.marker')")).toBeNull();
    await checks.check(page, 'login-expired');

    await loginByPassword(page);
    await onPage(page, 'prpt/answer');
    expect(pathOf(page)).toBe(answerPath);
    await page.locator('form fieldset').first().waitFor();
    expect(await tokenCookie(page)).toBeTruthy();
    await checks.check(page, 'answer-after-login');

    await context.close();
    expect(errors).toEqual([]);
    checks.assertAccessible();
  });

  test('prpo: an expiry on a prpo page lands on /prpo/login, login returns there, log out goes to standby', async () => {
    const { context, page } = await kioskPage(journey.browser, errors);
    await loginInto(page, 'prpo');
    await page.getByRole('link', { name: new RegExp(FILM.title) }).waitFor();

    await expireSessionsOnServer();
    await openFilm(page);
    await onPage(page, 'prpo/login');
    const cinemaPath = pathOf(page).replace(/^\/prpo\/login\?redirect=/, '');
    expect(decodeURIComponent(cinemaPath)).toMatch(/^\/prpo\/cinema\/[^/]+$/);
    await page
      .getByRole('alert')
      .filter({ hasText: zhText('toast.sessionExpired') })
      .waitFor();
    expect(await tokenCookie(page)).toBeUndefined();

    await loginByPassword(page);
    await onPage(page, 'prpo/cinema');
    expect(pathOf(page)).toBe(decodeURIComponent(cinemaPath));
    await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();

    // Logging out by hand from a guarded page ends on the part's standby, not on its login page,
    // and the server revokes the session: the token the kiosk held is refused from then on.
    const token = (await tokenCookie(page)) ?? '';
    const revoked = page.waitForResponse((r) => r.url().includes('/site_products/logout'));
    await page.getByRole('button', { name: zhText('ui.logout') }).click();
    await onPage(page, 'prpo/standby');
    expect(pathOf(page)).toBe('/prpo/standby');
    expect(await tokenCookie(page)).toBeUndefined();
    expect((await revoked).request().headers().token).toBe(token);
    const reused = await fetch(`${journey.app.origin}/producer/active_relation_two/show_film_picture`, {
      headers: { token },
    });
    expect(((await reused.json()) as { code: number }).code).toBe(1002);

    await context.close();
    expect(errors).toEqual([]);
  });
});
