import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Flags for a quiet, deterministic headless Chromium: no GPU, no QUIC, no first-run UI, no background
 * traffic (component updates, sync) that would add requests to what a test measures.
 */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches real Chromium through playwright-core. Each launch gets a fresh user-data dir (playwright
 * creates a temporary profile and deletes it on `browser.close()`), so no test sees another's cookies,
 * storage or cache. `extraArgs` adds flags, e.g. the fake media devices of the recording tests.
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: false, // --headless=new is passed explicitly above, so the flag list is exactly ours
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/**
 * Waits until `expression` is truthy in the page, polling it through the DevTools protocol
 * (page.evaluate). Not page.waitForFunction: that one evaluates its predicate with `eval` inside the
 * page, which the pages' Content-Security-Policy refuses (server/plugins/security-headers.ts), and a
 * test must not need a hole in the policy. A navigation in between reads as "not yet".
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const met = await page.evaluate<boolean>(`Boolean(${expression})`).catch(() => false);
    if (met) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
