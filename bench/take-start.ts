/**
 * npm run bench:take-start — what a take's start costs the page's main thread, in Chromium at
 * BENCH_THROTTLE (6) × CPU throttling: the Scene take click, on the 28-line film of bench:pipeline,
 * until 300 ms into the count-in, then Stop. BENCH_STARTS (8) starts, each on a freshly loaded page.
 *
 * The floor, in the same run and alternating with it: a click on a line's Listen button (the actor's
 * line played through an Audio element), the simplest click on that page that starts sound, measured
 * the same way over the same time.
 *
 * Per click, the renderer main thread's time (CDP Performance metrics: task, script, style and
 * layout) from the button's release to the end of the next frame: the click's own task and the frame
 * that shows it; then its task time over the whole span, and the long tasks (> 50 ms) in it from the
 * pointer's arrival. bench:pipeline measures the whole take; this isolates its start, where a long
 * task is felt as a button that does not answer.
 */
import os from 'node:os';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { importFilmFolder } from '../server/films/import';
import { launchChromium } from '../tests/support/browser';
import { startTestServer } from '../tests/support/server';
import {
  buildClient,
  FAKE_MIC_ARGS,
  login,
  micFixture,
  prptFilm,
  serveClient,
} from '../tests/e2e/recording-helpers';
import { buildLongFilm } from './pipeline-film';

const THROTTLE = Number(process.env.BENCH_THROTTLE ?? 6);
const STARTS = Number(process.env.BENCH_STARTS ?? 8);
/** How long after the count-in shows the start's cost is still counted. */
const SETTLE_MS = 300;

interface Click {
  /** The click: from the button's release to the end of the next frame (CDP Performance metrics). */
  clickMs: number;
  clickScriptMs: number;
  clickStyleLayoutMs: number;
  /** Main-thread task time from the release to the end of the span. */
  spanMs: number;
  longTasks: number[];
}

const OBSERVE = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask' });
})()`;

/** The renderer main thread's cumulative task, script and style + layout times (ms). */
async function mainThread(cdp: CDPSession): Promise<{ task: number; script: number; styleLayout: number }> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const m = (name: string) => (metrics.find((x) => x.name === name)?.value ?? 0) * 1000;
  return {
    task: m('TaskDuration'),
    script: m('ScriptDuration'),
    styleLayout: m('RecalcStyleDuration') + m('LayoutDuration'),
  };
}

/** Resolves once the main thread has gone QUIET_MS without a long task. */
const QUIET_MS = 1000;
const QUIET = `new Promise((done) => {
  let timer = setTimeout(done, ${QUIET_MS});
  new PerformanceObserver(() => { clearTimeout(timer); timer = setTimeout(done, ${QUIET_MS}); })
    .observe({ type: 'longtask' });
})`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

/**
 * Clicks `button` as a mouse does (move, press, release) and measures. The button is scrolled into
 * view and the page left to settle first; the click itself goes through the mouse alone, without the
 * test driver's checks on the target, which run on the page's main thread and would count as its own.
 */
async function measure(
  page: Page,
  button: Locator,
  after: () => Promise<unknown> = async () => {},
): Promise<Click> {
  await button.scrollIntoViewIfNeeded();
  await page.evaluate(QUIET);
  const box = await button.boundingBox();
  if (!box) throw new Error('the button to click is not on the page');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await cdp.send('Performance.enable');
  await page.evaluate(OBSERVE);
  // Move, press and release a frame apart, as a hand does: sent together they reach the page as
  // one task, which would add the hover's work to the click's.
  const frame = () => page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r)))');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await frame();
  await page.mouse.down();
  await frame();
  const before = await mainThread(cdp);
  await page.mouse.up();
  await frame();
  const clicked = await mainThread(cdp);
  await after();
  await page.waitForTimeout(SETTLE_MS); // a span of time to count long tasks in, not a wait for a state
  const end = await mainThread(cdp);
  const longTasks = await page.evaluate<number[]>('window.__longTasks');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  return {
    clickMs: clicked.task - before.task,
    clickScriptMs: clicked.script - before.script,
    clickStyleLayoutMs: clicked.styleLayout - before.styleLayout,
    spanMs: end.task - before.task,
    longTasks,
  };
}

const phaseIs = (phase: string) =>
  `document.querySelector('[data-testid=dub-phase]')?.getAttribute('data-phase') === '${phase}'`;

console.log(
  `bench:take-start on ${os.cpus().length} CPUs (load average ${os.loadavg()[0].toFixed(1)} at start)`,
);
const film = await buildLongFilm(60);
const api = await startTestServer({ seedDemo: true });
const build = await buildClient();
const client = await serveClient(build.outDir, api.url);
const browser = await launchChromium(FAKE_MIC_ARGS(micFixture().path));
try {
  await importFilmFolder({ db: api.app.db, storage: api.app.storage, log: api.app.log }, film.folder);
  const token = await login(api.url);
  const info = await prptFilm(api.url, token, 'Bench long take');
  const context = await browser.newContext();
  await context.addCookies([{ name: 'user-token', value: token, url: client.origin }]);
  const page = await context.newPage();
  const open = async () => {
    await page.goto(`${client.origin}/prpt/dub/${info.id}`);
    await page.getByTestId('dub-scene-take').waitFor();
    await page.waitForFunction("document.querySelector('[data-testid=dub-video]')?.readyState >= 1");
    // The page's loading done: its own long tasks would otherwise count against either click.
    await page.waitForLoadState('networkidle');
  };
  const starts: Click[] = [];
  const floors: Click[] = [];
  for (let i = 0; i < STARTS; i++) {
    await open();
    const listen = page
      .getByTestId(`line-${info.lines[0].id}`)
      .getByRole('button', { name: /Hear original|听原声/ });
    floors.push(await measure(page, listen));
    await open();
    starts.push(
      await measure(page, page.getByTestId('dub-scene-take'), () =>
        page.waitForFunction(phaseIs('count-in'), undefined, { timeout: 60_000 }),
      ),
    );
    await page.getByTestId('dub-stop').click();
    await page.waitForFunction(phaseIs('idle'));
  }
  await context.close();
  const ms = (xs: Click[], f: (x: Click) => number) => String(Math.round(median(xs.map(f)))).padStart(9);
  const row = (name: string, xs: Click[]) =>
    `${name.padEnd(14)}| ${ms(xs, (x) => x.clickMs)} | ${ms(xs, (x) => x.clickScriptMs)} | ` +
    `${ms(xs, (x) => x.clickStyleLayoutMs)} | ${ms(xs, (x) => x.spanMs)} | ` +
    `${String(median(xs.map((x) => x.longTasks.length))).padStart(10)} | ` +
    `${String(Math.round(Math.max(0, ...xs.flatMap((x) => x.longTasks)))).padStart(7)} | ` +
    xs.map((x) => Math.round(x.clickMs)).join(' ');
  console.log(`\n${THROTTLE}× CPU throttling, ${STARTS} clicks each; medians, main-thread ms`);
  console.log(
    'click         | the click | its script | style+layout | whole span | long tasks | longest | the click, each',
  );
  console.log(row('Scene take', starts));
  console.log(row('floor: Listen', floors));
} finally {
  await browser.close();
  await new Promise<void>((r) => client.server.httpServer.close(() => r()));
  await api.close();
  await build.remove();
  film.remove();
}
console.log(
  `load average at end ${os.loadavg()[0].toFixed(1)} (the machine is shared: compare rows of one run)`,
);
