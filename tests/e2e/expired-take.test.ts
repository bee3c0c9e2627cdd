import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, waitForExpression } from '../support/browser';
import { type JourneyApp, startJourneyApp } from '../support/journey/app';
import { onPage } from '../support/journey/contexts';
import { FILM } from '../support/journey/flow';
import { loginByPassword } from '../support/journey/login';
import { KIOSK } from '../support/journey/sizes';
import { zhText } from '../support/journey/text';
import { FAKE_MIC_ARGS, type FilmLines, login, micFixture, prptFilm } from './recording-helpers';

// A session that expires during a line take (1002) must not lose the take, nor one recorded before
// it: both are kept in IndexedDB, the learner logs in again, and they are sent then, to the run they
// were recorded in. Real Chromium with
// the fake microphone, the build served by the real server (its CSP), SQLite.
/** The upload queue's IndexedDB store (src/app/features/uploads/pending-count.ts). */
const UPLOADS_DB = 'dub-uploads';
const UPLOADS_STORE = 'pending';

let app: JourneyApp;
let browser: Browser;
let film: FilmLines;

beforeAll(async () => {
  const mic = micFixture();
  app = await startJourneyApp();
  film = await prptFilm(app.origin, await login(app.origin), FILM.titleEn);
  browser = await launchChromium(FAKE_MIC_ARGS(mic.path));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const takesOf = (lineId: string) =>
  app.server.app.db.selectFrom('takes').select(['id', 'run_id']).where('subtitle_id', '=', lineId).execute();

const scored = (page: Page, id: string) =>
  waitForExpression(
    page,
    `document.querySelector('[data-testid="line-${id}"]')?.dataset.stage === 'scored'`,
    90_000,
  );

describe('a take recorded while the session expires', () => {
  test('is kept, sent after the learner logs in again, and joins the same run', {
    timeout: 300_000,
  }, async () => {
    const context = await browser.newContext({ viewport: KIOSK, locale: 'zh-CN' });
    const page = await context.newPage();
    const errors: string[] = [];
    const log: string[] = [];
    let step = 'start';
    page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    try {
      const dubPath = `/prpt/dub/${film.id}`;
      await page.goto(`${app.origin}${dubPath}`);
      await onPage(page, 'prpt/login');
      await loginByPassword(page);
      await onPage(page, 'prpt/dub');
      await page.getByTestId('dub-scene-take').waitFor({ timeout: 30_000 });

      step = 'first line';
      // A first line, recorded and scored normally: it names the run.
      const before = film.lines[1];
      await page.locator(`[data-testid="record-${before.id}"]:enabled`).click();
      await scored(page, before.id);
      const [first] = await takesOf(before.id);
      expect(first?.run_id, 'the first take joined a run').toBeTruthy();

      step = 'held upload';
      // A second line's upload is held on its way (a slow uplink) while a third line is recorded;
      // the session ends on the server meanwhile, and the held upload comes back 1002 in the middle
      // of the third take (the app warns, clears the session and goes to the login page).
      const [held, during] = [film.lines[2], film.lines[3]];
      let release: (() => void) | null = null;
      const holding = new Promise<void>((resolve) => {
        void page.route(
          (url) => url.pathname.endsWith('/speech_emotion'),
          async (route) => {
            // The first upload after this point is the held line's (the lines are taken one by one).
            if (!release) {
              await new Promise<void>((go) => {
                release = go;
                resolve();
              });
            }
            await route.continue();
          },
        );
      });
      await page.locator(`[data-testid="record-${held.id}"]:enabled`).click();
      await Promise.race([
        holding,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the upload was not held')), 60_000)),
      ]);
      step = 'take during expiry';
      await page.locator(`[data-testid="record-${during.id}"]:enabled`).click();
      await page.locator('[data-testid="dub-phase"][data-phase="recording"]').waitFor({ timeout: 30_000 });
      await app.server.app.db.deleteFrom('sessions').execute();
      step = 'expiry answer';
      const expired = page.waitForResponse((r) => r.url().includes('/speech_emotion'));
      (release as unknown as () => void)();
      expect(((await (await expired).json()) as { code: number }).code).toBe(1002);
      await page
        .getByRole('alert')
        .filter({ hasText: zhText('toast.sessionExpired') })
        .waitFor();
      step = 'login page';
      await onPage(page, 'prpt/login', 90_000);
      expect(await takesOf(held.id), 'nothing stored while logged out').toEqual([]);
      expect(await takesOf(during.id), 'nothing stored while logged out').toEqual([]);
      step = 'kept in IndexedDB';
      // Both takes wait in IndexedDB.
      await waitForExpression(
        page,
        `new Promise((resolve) => { const r = indexedDB.open('${UPLOADS_DB}'); r.onsuccess = () => { try { const c = r.result.transaction('${UPLOADS_STORE}', 'readonly').objectStore('${UPLOADS_STORE}').count(); c.onsuccess = () => resolve(c.result === 2); c.onerror = () => resolve(false); } catch { resolve(false); } }; r.onerror = () => resolve(false); })`,
        30_000,
      );

      step = 'login again';
      // Logging in again returns to the dub page and sends the kept take, to the same run.
      await loginByPassword(page);
      await onPage(page, 'prpt/dub');
      step = 'sent after login';
      for (const line of [held, during]) {
        await scored(page, line.id);
        const kept = await takesOf(line.id);
        expect(kept, `the take of ${line.id} was sent once`).toHaveLength(1);
        expect(kept[0].run_id, `the take of ${line.id} joined the run it was recorded in`).toBe(first.run_id);
      }
      // Every line read as dubbed, not "Not recorded".
      for (const line of [before, held, during]) {
        await expect(page.getByTestId(`line-${line.id}`).getAttribute('data-stage')).resolves.toBe('scored');
      }
      await page.screenshot({
        path: 'test-results/screens/expired-take-after-login-kiosk.png',
        fullPage: true,
      });
      expect(errors).toEqual([]);
    } catch (e) {
      throw new Error(`${step}: ${(e as Error).message}\n${log.slice(-15).join('\n')}`);
    } finally {
      await context.close();
    }
  });
});
