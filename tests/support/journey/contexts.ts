import type { Browser, BrowserContext, Page } from 'playwright-core';
import { KIOSK, PHONE } from './sizes';

/** A kiosk: a landscape 1920×1080 screen, Chinese locale, no touch. Page errors are collected. */
export async function kioskPage(
  browser: Browser,
  errors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: KIOSK, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`kiosk: ${e.message}`));
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
  page.on('pageerror', (e) => errors.push(`phone: ${e.message}`));
  return { context, page };
}

/** Waits until the route's own page module has rendered (LazyPage sets `data-page`). */
export async function onPage(page: Page, name: string, timeout = 60_000): Promise<void> {
  await page.locator(`[data-page="${name}"]`).waitFor({ timeout });
}
