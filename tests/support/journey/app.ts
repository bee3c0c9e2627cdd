import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../browser';
import { startTestServer, type TestServer, type TestServerOptions } from '../server';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface JourneyApp {
  /** Origin of the one server that serves the production build, /producer and /ai, like `npm start`. */
  origin: string;
  server: TestServer;
  close: () => Promise<void>;
}

/**
 * The production build of the client served by the real server (SQLite, demo account, demo films), so a
 * journey exercises exactly what a kiosk loads: no dev server, no proxy, one origin for SPA and API.
 */
export async function startJourneyApp(env: TestServerOptions['env'] = {}): Promise<JourneyApp> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'journey-build-'));
  try {
    // Vite makes a development build when NODE_ENV is set to anything but 'production', and vitest
    // sets it to 'test': the journeys then loaded React's development build and the DEV-only contract
    // check with zod (src/api/calls.ts), whose eval probe the production policy refuses (seen in Firefox).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const server = await startTestServer({ seedDemo: true, importDemo: true, spaRoot: outDir, env });
    return {
      origin: server.url,
      server,
      close: async () => {
        await server.close();
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(outDir, { recursive: true, force: true });
    throw err;
  }
}

/** What {@link journeyForFile} starts: read it inside tests and hooks, where its hooks have run. */
export interface Journey {
  readonly app: JourneyApp;
  readonly browser: Browser;
}

/**
 * Hooks for a journey file: the app ({@link startJourneyApp}) and Chromium, started before the file's
 * tests (Chromium with `chromiumArgs()`, called then, e.g. a fake microphone) and closed after them.
 * `hookTimeout` overrides the project's for the start.
 */
export function journeyForFile(
  options: { chromiumArgs?: () => string[]; hookTimeout?: number } = {},
): Journey {
  let app: JourneyApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    app = await startJourneyApp();
    browser = await launchChromium(options.chromiumArgs?.());
  }, options.hookTimeout);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  return {
    get app() {
      return app!;
    },
    get browser() {
      return browser!;
    },
  };
}
