import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { journeyForFile } from '../support/journey/app';
import { kioskPage, onPage } from '../support/journey/contexts';
import { FILM, openFilm } from '../support/journey/flow';
import { loginByPassword } from '../support/journey/login';
import { ScreenChecks } from '../support/journey/screens';
import { zhText } from '../support/journey/text';

// Journey 4: a kiosk left alone returns to standby and logs out, so the next visitor never
// sees someone else's session. The idle time is shortened through the run-time config the app reads
// (window.__APP_CONFIG__.kioskIdleMs); the warning shows for its last quarter. The same config marks
// the screen a kiosk (`device`), as its operator does: Chromium here has a mouse and no touch screen,
// which unmarked counts as a personal desktop (src/app/lib/device.ts).
const IDLE_MS = 30_000;

const errors: string[] = [];

const journey = journeyForFile();

const tokenCookie = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'user-token')?.value;

describe('journey 4: kiosk idle timeout', () => {
  test('after the idle time the kiosk returns to standby and the session is cleared; "keep going" keeps it', {
    timeout: 300_000,
  }, async () => {
    const checks = new ScreenChecks('journey-4');
    const { context, page } = await kioskPage(journey.browser, errors);
    await page.addInitScript(`window.__APP_CONFIG__ = { kioskIdleMs: ${IDLE_MS}, device: 'kiosk' };`);

    await page.goto(`${journey.app.origin}/prpo/movies`);
    await onPage(page, 'prpo/login');
    await loginByPassword(page);
    await onPage(page, 'prpo/movies');
    await openFilm(page);
    await onPage(page, 'prpo/cinema');
    await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
    await page.evaluate("sessionStorage.setItem('journey.marker', 'the learner was here')");
    expect(await tokenCookie(page)).toBeTruthy();
    const cinemaUrl = page.url();

    // Nobody touches the kiosk: the warning comes up; "keep going" keeps the session and the page.
    const warning = page.getByRole('dialog', { name: zhText('idle.title') });
    await warning.waitFor({ timeout: IDLE_MS + 30_000 });
    await checks.check(page, 'idle-warning');
    // A touch anywhere is activity and dismisses the warning on pointerdown, before the button's click
    // fires; so press the button as a finger does (a raw pointer press at its centre) rather than with
    // locator.click(), whose checks see the dialog vanish under the pointer and retry.
    const stay = await warning.getByRole('button', { name: zhText('idle.stay') }).boundingBox();
    expect(stay).not.toBeNull();
    const box = stay as { x: number; y: number; width: number; height: number };
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await warning.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(cinemaUrl);
    expect(await tokenCookie(page)).toBeTruthy();

    // Left alone again: this time the idle time runs out.
    await warning.waitFor({ timeout: IDLE_MS + 30_000 });
    await onPage(page, 'prpo/standby', IDLE_MS + 30_000);
    expect(new URL(page.url()).pathname).toBe('/prpo/standby');
    expect(await tokenCookie(page)).toBeUndefined();
    // Everything is wiped; only the kiosk's UI language is written back (a device setting).
    expect(await page.evaluate<string[]>('Object.keys(localStorage)')).toEqual(['app.lang']);
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    await page.getByText(zhText('standby.touch')).first().waitFor();
    await checks.check(page, 'standby');

    // The session is really gone: a guarded page asks for a login again.
    await page.goto(`${journey.app.origin}/prpo/movies`);
    await onPage(page, 'prpo/login');

    await context.close();
    expect(errors).toEqual([]);
    checks.assertAccessible();
  });
});
