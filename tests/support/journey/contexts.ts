import type { Browser, BrowserContext, Page } from 'playwright-core';
import { KIOSK, PHONE } from './sizes';

type Lang = 'zh' | 'en';

/**
 * Page errors and anything the Content-Security-Policy refused (server/plugins/security-headers.ts):
 * Chromium reports a refusal as a console error, and a journey that loads something the policy
 * blocks fails on it.
 */
function collect(page: Page, who: string, errors: string[]): void {
  page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(`${who}: ${m.text()}`);
  });
}

/**
 * A kiosk: a landscape 1920×1080 screen, Chinese locale, no touch. Page errors are collected. With no
 * touch screen the app takes it for a personal desktop unless marked (src/app/lib/device.ts): a
 * journey that needs the idle logout marks it through `window.__APP_CONFIG__.device` (journey 4).
 */
export async function kioskPage(
  browser: Browser,
  errors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: KIOSK, locale: 'zh-CN' });
  const page = await context.newPage();
  collect(page, 'kiosk', errors);
  return { context, page };
}

/** A learner's phone: 390×844, mobile viewport and touch, a separate cookie jar from the kiosk. */
export async function phonePage(
  browser: Browser,
  errors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36',
  });
  const page = await context.newPage();
  collect(page, 'phone', errors);
  return { context, page };
}

/**
 * A learner's browser at `size` (a phone: 390×844, mobile viewport, touch) in `lang`, as the learner's
 * earlier choice left it (`app.lang`), with the kiosk's idle timer off for long takes; signed in when
 * `token` is given (its cookie for `origin`). Page errors are collected in the answer's `errors`.
 */
export async function learnerPage(
  browser: Browser,
  origin: string,
  options: { lang: Lang; size: 'phone' | 'kiosk'; token?: string; reducedMotion?: 'reduce' },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { lang, size, token, reducedMotion } = options;
  const context = await browser.newContext({
    ...(size === 'phone'
      ? { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
      : { viewport: KIOSK }),
    locale: lang === 'zh' ? 'zh-CN' : 'en-GB',
    ...(reducedMotion ? { reducedMotion } : {}),
  });
  if (token) await context.addCookies([{ name: 'user-token', value: token, url: origin }]);
  await context.addInitScript(
    `localStorage.setItem('app.lang', ${JSON.stringify(lang)}); window.__APP_CONFIG__ = { kioskIdleMs: 0 };`,
  );
  const page = await context.newPage();
  const errors: string[] = [];
  collect(page, size, errors);
  return { context, page, errors };
}

/** Waits until the route's own page module has rendered (LazyPage sets `data-page`). */
export async function onPage(page: Page, name: string, timeout = 60_000): Promise<void> {
  await page.locator(`[data-page="${name}"]`).waitFor({ timeout });
}
