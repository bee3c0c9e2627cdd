import { type Browser, chromium } from 'playwright-core';

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
