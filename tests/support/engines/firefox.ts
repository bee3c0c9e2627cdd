import fs from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { requireBinaries } from './binaries';
import { ERROR_COLLECTOR, type Engine, type EnginePage } from './engine';

/**
 * Firefox ESR through WebDriver BiDi (puppeteer-core; Debian ships no geckodriver). Headless; its
 * audio goes to the PulseAudio server in `env` (./pulse.ts), whose default source is the wav
 * microphone. Microphone permission is granted by preference, as a kiosk's policy would.
 */
export async function launchFirefox(env: Record<string, string>): Promise<Engine> {
  const bin = requireBinaries('firefox');
  const started = performance.now();
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: bin.firefox,
    headless: true,
    // A call the page never answers (seen once under heavy load, after a scene take started) fails in
    // 30 s, and the journey's wait asks again, rather than blocking for puppeteer's default 180 s.
    protocolTimeout: 30_000,
    env: { ...process.env, ...env },
    extraPrefsFirefox: {
      'media.navigator.permission.disabled': true,
      'intl.accept_languages': 'zh-CN',
    },
  });
  const launchMs = performance.now() - started;
  return {
    name: 'firefox',
    version: await browser.version(),
    launchMs,
    newPage: async (size) => {
      // Each page in its own context: its own cookies and storage, as a fresh kiosk session.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(size);
      return firefoxPage(page, async () => {
        await context.close();
      });
    },
    close: () => browser.close(),
  };
}

function firefoxPage(page: Page, close: () => Promise<void>): EnginePage {
  const reported: string[] = [];
  page.on('pageerror', (e) => reported.push(`pageerror: ${(e as Error).message ?? e}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(m.text()))
      reported.push(`console: ${m.text()}`);
  });
  const element = async (find: string) => {
    const handle = await page.evaluateHandle(find);
    const el = handle.asElement();
    if (!el) throw new Error(`no element for ${find}`);
    return el;
  };
  return {
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'load' });
      await page.evaluate(ERROR_COLLECTOR);
    },
    url: async () => page.url(),
    evaluate: async <T>(expression: string) => (await page.evaluate(expression)) as T,
    click: async (find) => {
      const el = await element(find);
      await el.click();
    },
    type: async (find, text) => {
      const el = await element(find);
      await el.type(text);
    },
    clickAt: (point) => page.mouse.click(point.x, point.y),
    setSize: (size) => page.setViewport(size),
    screenshot: async (file) => {
      fs.writeFileSync(file, await page.screenshot({ type: 'png' }));
    },
    errors: async () => [
      ...reported,
      ...((await page.evaluate('window.__engineErrors ?? []').catch(() => [])) as string[]),
    ],
    consoleLines: async () =>
      (await page.evaluate('window.__engineConsole ?? []').catch(() => [])) as string[],
    close,
  };
}
