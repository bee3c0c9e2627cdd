import fs from 'node:fs';
import { freePort, startProcess } from '../processes';
import { requireBinaries } from './binaries';
import { ERROR_COLLECTOR, type Engine, type EnginePage } from './engine';
import { WebDriverSession } from './webdriver';

/**
 * MiniBrowser's switches: automation mode, media capture and Web Audio on, and media allowed to play
 * without a gesture, as the Chromium journeys allow it (tests/e2e/recording-helpers.ts).
 * The microphone is the default PulseAudio source (./pulse.ts), not WebKit's mock device.
 */
const MINIBROWSER_ARGS = [
  '--automation',
  '--enable-mock-capture-devices=false',
  '--enable-media-stream=true',
  '--enable-webaudio=true',
  '--media-playback-requires-user-gesture=false',
];

/**
 * WebKitGTK through WebKitWebDriver (W3C WebDriver over HTTP, ./webdriver.ts) driving MiniBrowser on
 * the X display `env.DISPLAY` (./xvfb.ts). Each page is a session of its own: a new MiniBrowser with
 * an ephemeral profile, so journeys share no cookies or storage.
 */
export function launchWebKit(env: Record<string, string>): Promise<Engine> {
  const bin = requireBinaries('webkitDriver', 'miniBrowser');
  return launchWebDriverEngine('webkit', 'WebKitGTK', bin.webkitDriver, env, {
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: bin.miniBrowser, args: MINIBROWSER_ARGS },
  });
}

/**
 * WPE WebKit through WPEWebDriver driving cog on its headless platform (no display, no sound server):
 * Debian's WPE 2.38 has no Wasm SIMD (as Safari before 16.4) and no getUserMedia. Its driver runs one session at a time, so each page is the next session.
 */
export function launchWpe(env: Record<string, string>): Promise<Engine> {
  const bin = requireBinaries('wpeDriver', 'cog');
  return launchWebDriverEngine('wpe', 'WPE WebKit', bin.wpeDriver, env, {
    browserName: 'cog',
    'wpe:browserOptions': { binary: bin.cog, args: ['--automation', '--platform=headless'] },
  });
}

/** How long a new browser session may take to start before its driver is replaced (nextSession). */
const SESSION_START_MS = 30_000;

async function launchWebDriverEngine(
  name: 'webkit' | 'wpe',
  label: string,
  driverBin: string,
  env: Record<string, string>,
  capabilities: Record<string, unknown>,
): Promise<Engine> {
  const started = performance.now();
  let main = await startDriver(label, driverBin, env);
  // The launch time is the driver's and a first browser's: the session stays open as the first page.
  let first: WebDriverSession | null = await WebDriverSession.create(main.base, capabilities);
  const launchMs = performance.now() - started;
  const version = `${label} ${first.capabilities.browserVersion}`;
  const resizable = first.capabilities.setWindowRect !== false;
  /** Whether the main driver's one session is in use (a page is open on it). */
  let mainBusy = false;
  /**
   * The main driver's next session. A browser starts in 0.6–3 s here; once in eight WebKitGTK
   * journeys the driver never answered a new session after the last one was deleted (90 s, then the
   * journey failed), so a session not started in SESSION_START_MS is asked of a fresh driver, once,
   * and said so.
   */
  const nextSession = async (): Promise<WebDriverSession> => {
    try {
      return await WebDriverSession.create(main.base, capabilities, SESSION_START_MS);
    } catch (err) {
      console.warn(`[engines] ${name}: ${(err as Error).message}; starting a fresh driver`);
      await main.stop();
      main = await startDriver(label, driverBin, env);
      return WebDriverSession.create(main.base, capabilities);
    }
  };
  return {
    name,
    version,
    launchMs,
    newPage: async (size) => {
      // The driver holds one session at a time ("Maximum number of active sessions"): a page opened
      // beside another (a phone beside the kiosk) gets a driver of its own, stopped with the page.
      const own = mainBusy ? await startDriver(label, driverBin, env) : null;
      let session: WebDriverSession;
      try {
        session = own
          ? await WebDriverSession.create(own.base, capabilities)
          : (first ?? (await nextSession()));
      } catch (err) {
        await own?.stop();
        throw err;
      }
      if (!own) {
        first = null;
        mainBusy = true;
      }
      await session.setTimeouts({ script: 300_000, pageLoad: 120_000 });
      const page = webkitPage(session, resizable, async () => {
        if (own) await own.stop();
        else mainBusy = false;
      });
      await page.setSize(size);
      return page;
    },
    close: async () => {
      await first?.delete();
      await main.stop();
    },
  };
}

/** A WebDriver server on a free port, answering. */
async function startDriver(
  label: string,
  driverBin: string,
  env: Record<string, string>,
): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const driver = await startProcess(label, driverBin, [`--port=${port}`], env);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForDriver(base, () => driver.lines);
  } catch (err) {
    await driver.stop(5_000);
    throw err;
  }
  return {
    base,
    stop: async () => {
      await driver.stop(5_000);
    },
  };
}

function webkitPage(session: WebDriverSession, resizable: boolean, closed: () => Promise<void>): EnginePage {
  const element = async (find: string) => {
    const id = WebDriverSession.elementId(await session.execute(`return (${find});`));
    if (!id) throw new Error(`no element for ${find}`);
    return id;
  };
  const evaluate = async <T>(expression: string): Promise<T> => {
    const done = await session.executeAsync<{ value?: T; error?: string }>(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => (${expression})).then(
         (value) => done({ value }),
         (e) => done({ error: String((e && e.stack) || e) }));`,
    );
    if (done.error !== undefined) throw new Error(`in the page: ${done.error}`);
    return done.value as T;
  };
  return {
    goto: async (url) => {
      await session.navigate(url);
      await session.execute(ERROR_COLLECTOR);
    },
    url: () => session.url(),
    evaluate,
    click: async (find) => {
      await session.click(await element(find));
    },
    type: async (find, text) => {
      await session.sendKeys(await element(find), text);
    },
    clickAt: (point) => session.pressAt(point),
    setSize: async (size) => {
      if (!resizable) return;
      // The window rect includes MiniBrowser's own chrome: size it, measure the viewport, correct once.
      await session.setWindowRect(size);
      const inner = await session.execute<[number, number]>('return [innerWidth, innerHeight];');
      await session.setWindowRect({
        width: size.width + (size.width - inner[0]),
        height: size.height + (size.height - inner[1]),
      });
    },
    screenshot: async (file) => {
      fs.writeFileSync(file, await session.screenshot());
    },
    errors: () => evaluate<string[]>('window.__engineErrors ?? []'),
    consoleLines: () => evaluate<string[]>('window.__engineConsole ?? []'),
    close: async () => {
      try {
        await session.delete();
      } finally {
        await closed();
      }
    },
  };
}

/** The driver answers /status once it listens: asked until then (or until it ends). */
async function waitForDriver(base: string, lines: () => string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/status`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`the WebDriver server did not answer in 20 s:\n${lines().slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
