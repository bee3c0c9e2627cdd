/**
 * npm run bench:take-start — what a take's start costs the page's main thread, in Chromium at
 * BENCH_THROTTLE (6) × CPU throttling: the Scene take click, on the 28-line film of bench:pipeline,
 * until 300 ms into the count-in, then Stop. BENCH_STARTS (8) starts, each on a freshly loaded page.
 *
 * The floor, in the same run and alternating with it: a click on a line's Listen button (the actor's
 * line played through an Audio element), the simplest click on that page that starts sound, measured
 * the same way over the same time.
 *
 * Per click, from the page's Long Animation Frame entries: the click handler's script time and the
 * style and layout it forced; and the main-thread long tasks (> 50 ms) from the click to the end.
 * bench:pipeline measures the whole take; this isolates its start, where a long task is felt as a
 * button that does not answer.
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { importFilmFolder } from '../server/films/import';
import { launchChromium } from '../tests/support/browser';
import { startTestServer } from '../tests/support/server';
import { FAKE_MIC_ARGS, login, micFixture, prptFilm, serveClient } from '../tests/e2e/recording-helpers';
import { buildClientWithMaps } from './pipeline-attribution';
import { buildLongFilm } from './pipeline-film';

const THROTTLE = Number(process.env.BENCH_THROTTLE ?? 6);
const STARTS = Number(process.env.BENCH_STARTS ?? 8);
/** How long after the count-in shows the start's cost is still counted. */
const SETTLE_MS = 300;

interface Click {
  scriptMs: number;
  forcedMs: number;
  longTasks: number[];
}

const OBSERVE = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask' });
  window.__clicks = [];
  new PerformanceObserver((l) => {
    for (const f of l.getEntries())
      for (const s of f.scripts)
        if (s.invoker.endsWith('.onclick')) window.__clicks.push([s.duration, s.forcedStyleAndLayoutDuration]);
  }).observe({ type: 'long-animation-frame' });
})()`;

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

async function measure(page: Page, click: () => Promise<void>): Promise<Click> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.evaluate(OBSERVE);
  await click();
  await page.waitForTimeout(SETTLE_MS); // a span of time to count long tasks in, not a wait for a state
  const r = await page.evaluate<{ clicks: [number, number][]; longTasks: number[] }>(
    '({ clicks: window.__clicks, longTasks: window.__longTasks })',
  );
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  // A click that took under 50 ms of its frame is not in any Long Animation Frame entry.
  return {
    scriptMs: r.clicks.reduce((n, [d]) => n + d, 0),
    forcedMs: r.clicks.reduce((n, [, f]) => n + f, 0),
    longTasks: r.longTasks,
  };
}

const phaseIs = (phase: string) =>
  `document.querySelector('[data-testid=dub-phase]')?.getAttribute('data-phase') === '${phase}'`;

console.log(
  `bench:take-start on ${os.cpus().length} CPUs (load average ${os.loadavg()[0].toFixed(1)} at start)`,
);
const film = await buildLongFilm(60);
const api = await startTestServer({ seedDemo: true });
const build = await buildClientWithMaps();
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
    // The page settled: its loading's own long tasks would otherwise count against either click.
    await page.waitForLoadState('networkidle');
    await page.evaluate(QUIET);
  };
  const starts: Click[] = [];
  const floors: Click[] = [];
  for (let i = 0; i < STARTS; i++) {
    await open();
    floors.push(
      await measure(page, () =>
        page
          .getByTestId(`line-${info.lines[0].id}`)
          .getByRole('button', { name: /Hear original|听原声/ })
          .click(),
      ),
    );
    await open();
    starts.push(
      await measure(page, async () => {
        await page.getByTestId('dub-scene-take').click();
        await page.waitForFunction(phaseIs('count-in'), undefined, { timeout: 60_000 });
      }),
    );
    await page.getByTestId('dub-stop').click();
    await page.waitForFunction(phaseIs('idle'));
  }
  await context.close();
  const row = (name: string, xs: Click[]) => {
    const all = xs.flatMap((x) => x.longTasks);
    return (
      `${name.padEnd(22)}| ${String(Math.round(median(xs.map((x) => x.scriptMs)))).padStart(10)} | ` +
      `${String(Math.round(median(xs.map((x) => x.forcedMs)))).padStart(10)} | ` +
      `${String(median(xs.map((x) => x.longTasks.length))).padStart(10)} | ` +
      `${String(Math.round(Math.max(0, ...all))).padStart(11)} | ` +
      xs.map((x) => `${Math.round(x.scriptMs)}/${x.longTasks.length}`).join(' ')
    );
  };
  console.log(
    `\n${THROTTLE}× CPU throttling, ${STARTS} clicks each, medians (script ms / long tasks per click at the end)`,
  );
  console.log('click                 | script ms  | forced ms  | long tasks | longest ms  | each');
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
