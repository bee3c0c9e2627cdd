/**
 * npm run bench:pipeline — prints, in one run:
 *  1. resample + encode speed of the encoder worker's code, × real time (Node);
 *  2. peak memory of that code over a 10-minute take (Node);
 *  3. in Chromium at 4× CPU throttling (CDP Emulation.setCPUThrottlingRate), during a ≥ 60 s scene
 *     take with a fake microphone whose learner speaks in time with the clip (bench/pipeline-mic.ts):
 *     main-thread long tasks (> 50 ms) and line-end → score-shown latency p50 / p95, with each step's
 *     (from the page's own `dub:…` User Timing measures, src/app/features/dub/pipeline-timing.ts);
 *  4. what those long tasks are: Long Animation Frame script attribution (invoker → source function,
 *     mapped to src/ through the build's hidden source maps), and with `BENCH_TRACE=1` a Chrome trace
 *     of the take with each main-thread task > 50 ms broken down by trace event (tracing slows the
 *     page, so the long-task count of a traced run is not the figure to quote); `BENCH_TRACE_FILE=x.json`
 *     also saves that trace (it opens in the browser's performance panel); `BENCH_PROFILE=1` a sampling
 *     CPU profile, summed by the deepest stack frame under src/ (which of our functions asked for it).
 * `BENCH_THROTTLE=6` sets the CPU throttling rate (default 4).
 * `BENCH_SKIP_BROWSER=1` runs only the Node part, `BENCH_SKIP_NODE=1` only the Chromium part.
 */
import fs from 'node:fs';
import os from 'node:os';
import { importFilmFolder } from '../server/films/import';
import { launchChromium } from '../tests/support/browser';
import { startTestServer } from '../tests/support/server';
import { FAKE_MIC_ARGS, login, micFixture, prptFilm, serveClient } from '../tests/e2e/recording-helpers';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../src/audio/constants';
import { StreamingResampler } from '../src/audio/dsp/resample';
import { benchNode, type NodeBenchResult, resamplerResponse } from './pipeline-node';
import {
  attributeLoafs,
  attributeProfile,
  attributeTrace,
  type CpuProfile,
  BundleMaps,
  buildClientWithMaps,
  formatAttribution,
  type Loaf,
  OBSERVE_LOAF,
  TRACE_CATEGORIES,
} from './pipeline-attribution';
import { buildLongFilm } from './pipeline-film';
import { alignedMic, micAlignment, micDelay, type PlacedUpload, readMono } from './pipeline-mic';
import type { Browser } from 'playwright-core';
import { decodeWav, toMono } from '../src/audio/dsp/wav';

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};

const THROTTLE = Number(process.env.BENCH_THROTTLE ?? 4);

async function benchBrowser() {
  const film = await buildLongFilm(60);
  const api = await startTestServer({ seedDemo: true });
  const clientBuild = await buildClientWithMaps();
  const maps = new BundleMaps(clientBuild.outDir);
  const tracing = !!process.env.BENCH_TRACE;
  const profiling = !!process.env.BENCH_PROFILE;
  const client = await serveClient(clientBuild.outDir, api.url);
  const looped = micFixture().path;
  const fixture = readMono(looped);
  let browser: Browser | null = null;
  try {
    await importFilmFolder({ db: api.app.db, storage: api.app.storage, log: api.app.log }, film.folder);
    const token = await login(api.url);
    const info = await prptFilm(api.url, token, 'Bench long take');
    const lineStarts = new Map(
      (
        await api.app.db
          .selectFrom('subtitles')
          .select(['id', 'start_ms'])
          .where('film_id', '=', info.id)
          .execute()
      ).map((r) => [r.id, r.start_ms / 1000]),
    );
    const seen = new Set<string>();
    /** The take's uploads as the server stored them, with where each window began on the clip. */
    const uploadsOfTake = async (): Promise<PlacedUpload[]> => {
      const rows = await api.app.db
        .selectFrom('takes')
        .select(['id', 'subtitle_id', 'audio_key'])
        .where('film_id', '=', info.id)
        .execute();
      const fresh = rows.filter((r) => !seen.has(r.id));
      for (const r of fresh) seen.add(r.id);
      return Promise.all(
        fresh.map(async (r) => ({
          wav: toMono(decodeWav(await api.app.storage.get(r.audio_key))),
          windowStart: (lineStarts.get(r.subtitle_id) ?? Number.NaN) - DEFAULT_WINDOW_MARGIN_SECONDS,
        })),
      );
    };
    // One scene take per browser and page: with the pitch guide (the default) and without it
    // (?guide=off); a browser per take, as each take's microphone file is its own (bench/pipeline-mic.ts).
    const take = async (guide: boolean, micPath: string) => {
      const b = await launchChromium(FAKE_MIC_ARGS(micPath));
      browser = b;
      const context = await b.newContext();
      await context.addCookies([{ name: 'user-token', value: token, url: client.origin }]);
      const page = await context.newPage();
      await page.goto(`${client.origin}/prpt/dub/${info.id}?debug=pipeline${guide ? '' : '&guide=off'}`);
      await page.getByTestId('dub-scene-take').waitFor();
      await page.waitForFunction("document.querySelector('[data-testid=dub-video]')?.readyState >= 1");
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      await page.evaluate(`(() => {
        window.__longTasks = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
          .observe({ type: 'longtask' });
        window.__takeStart = performance.now();
      })()`);
      await page.evaluate(OBSERVE_LOAF);
      if (tracing) await b.startTracing(page, { categories: TRACE_CATEGORIES });
      if (profiling) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
        await cdp.send('Profiler.start');
      }
      await page.getByTestId('dub-scene-take').click();
      await page.waitForFunction(
        "document.querySelector('[data-testid=dub-phase]')?.getAttribute('data-phase') === 'recording'",
        undefined,
        { timeout: 60_000 },
      );
      await page.waitForFunction(
        "document.querySelector('[data-testid=dub-phase]')?.getAttribute('data-phase') === 'idle'",
        undefined,
        { timeout: 300_000, polling: 500 },
      );
      const takeEnd = await page.evaluate<number>('performance.now()');
      const trace = tracing ? await b.stopTracing() : null;
      const profile = profiling ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : null;
      if (trace && process.env.BENCH_TRACE_FILE) fs.writeFileSync(process.env.BENCH_TRACE_FILE, trace);
      // Every line ends scored, or failed when the service refuses its window (the looping mic file
      // can leave a line of the repeated film with room tone only).
      const stages = () =>
        page.evaluate<string[]>(
          `[...document.querySelectorAll('[data-testid^=line-]')].map((e) => e.dataset.testid + ' ' + e.dataset.stage + ' ' + e.querySelector('[role=status]')?.textContent)`,
        );
      try {
        await page.waitForFunction(
          `[...document.querySelectorAll('[data-testid^=line-]')].every((e) => e.dataset.stage === 'scored' || e.dataset.stage === 'failed')`,
          undefined,
          { timeout: 300_000, polling: 1000 },
        );
      } catch (e) {
        console.log(`[Chromium] lines did not all finish:\n  ${(await stages()).join('\n  ')}`);
        throw e;
      }
      const failed = await page.evaluate<string[]>(
        `[...document.querySelectorAll('[data-stage="failed"][data-testid^=line-]')].map((e) => e.textContent)`,
      );
      await page.waitForTimeout(500); // the last measure is taken one frame after the score is painted
      const result = await page.evaluate<{
        longTasks: [number, number][];
        takeStart: number;
        latencies: number[];
        stages: Record<string, number[]>;
        dropped: string;
        loafs: Loaf[];
        storedScoresChars: number;
      }>(`({
        storedScoresChars: Object.keys(sessionStorage).filter((k) => k.startsWith('prpt.subTitlesScores/')).reduce((n, k) => n + (sessionStorage.getItem(k)?.length ?? 0), 0),
        loafs: window.__loafs,
        longTasks: window.__longTasks,
        takeStart: window.__takeStart,
        latencies: performance.getEntriesByType('measure').filter((m) => m.name.startsWith('dub:line-end')).map((m) => m.duration),
        stages: Object.fromEntries(['tail', 'encode', 'handoff', 'queue', 'upload+score', 'paint'].map((s) => [s, performance.getEntriesByType('measure').filter((m) => m.name.startsWith('dub:' + s + ' ')).map((m) => m.duration)])),
        dropped: document.querySelector('[data-testid=overlay-dropped]')?.textContent ?? '',
      })`);
      const during = result.longTasks.filter(([start]) => start >= result.takeStart && start <= takeEnd);
      const loafs = result.loafs.filter((f) => f.startTime >= result.takeStart && f.startTime <= takeEnd);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await context.close();
      await b.close();
      browser = null;
      return {
        uploads: await uploadsOfTake(),
        guide,
        lines: info.lines.length,
        takeSeconds: (takeEnd - result.takeStart) / 1000,
        longTasks: during.length,
        worstLongTaskMs: Math.round(Math.max(0, ...during.map(([, d]) => d))),
        latencies: result.latencies,
        p50: Math.round(quantile(result.latencies, 0.5)),
        p95: Math.round(quantile(result.latencies, 0.95)),
        stages: result.stages,
        dropped: result.dropped,
        storedScoresKb: Math.round(result.storedScoresChars / 1024),
        failed,
        loaf: attributeLoafs(loafs, maps, result.takeStart),
        trace: trace ? attributeTrace(trace, client.origin, maps) : null,
        profile: profile ? attributeProfile(profile, maps) : null,
      };
    };
    // Alternating (off, on, off, on, …) so neither side gets the cold first page or a calmer minute.
    const rounds = Math.max(1, Number(process.env.BENCH_GUIDE_ROUNDS ?? 2));
    // The microphone's delay, from a first take on the looping file (not counted), so the measured
    // takes' learner speaks in time with the clip (bench/pipeline-mic.ts). That first take is a cold
    // page and server: a second, on the file made from it (not counted either), measures the delay
    // again, and each take's file follows what the take before it measured.
    const first = micDelay((await take(false, looped)).uploads, fixture);
    if (first === null) throw new Error("the first take's uploads were not found in the microphone's file");
    let delay = first;
    const measured = async (guide: boolean) => {
      const mic = alignedMic(fixture, delay, film.copies, film.stepSeconds);
      const t = await take(guide, mic.chromiumPath);
      const a = micAlignment(t.uploads, mic.samples, delay, film.stepSeconds);
      if (a.found === 0) throw new Error("a take's uploads were not found in the microphone's file");
      const used = delay;
      delay += a.median;
      return { ...t, inTime: { ...a, delay: used } };
    };
    await measured(false);
    const offs: Awaited<ReturnType<typeof measured>>[] = [];
    const ons: Awaited<ReturnType<typeof measured>>[] = [];
    for (let r = 0; r < rounds; r++) {
      offs.push(await measured(false));
      ons.push(await measured(true));
    }
    const on = ons[ons.length - 1];
    const tasks = (xs: typeof ons) =>
      xs.map((x) => `${x.longTasks} (worst ${x.worstLongTaskMs} ms)`).join(', ');
    const sum = (xs: typeof ons) => xs.reduce((n, x) => n + x.longTasks, 0);
    const s = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)} s`;
    const timing = [...offs, ...ons]
      .map(
        ({ inTime: a }) =>
          `${s(a.median)} (${s(a.min)} to ${s(a.max)}, ${a.found} of ${a.of} found; file ${a.delay.toFixed(3)} s ahead)`,
      )
      .join('; ');
    return {
      ...on,
      guideRuns: { rounds, on: tasks(ons), off: tasks(offs), added: sum(ons) - sum(offs) },
      mic: { delay: first, inTime: timing },
    };
  } finally {
    await (browser as Browser | null)?.close();
    await new Promise<void>((r) => client.server.httpServer.close(() => r()));
    await api.close();
    await clientBuild.remove();
    film.remove();
  }
}

const load = () => os.loadavg()[0].toFixed(1);
console.log(`bench:pipeline on ${os.cpus().length} CPUs (load average ${load()} at start)`);
if (process.env.BENCH_SKIP_NODE) {
  console.log('[Node] skipped (BENCH_SKIP_NODE)');
} else {
  for (const rate of [48_000, 44_100]) {
    const r = resamplerResponse(rate);
    console.log(
      `[resampler] ${rate} Hz → 16 kHz: passband (50 Hz–7 kHz) worst ${r.passbandWorstDb.toFixed(4)} dB, ` +
        `above 8 kHz worst ${r.stopbandWorstDb.toFixed(1)} dB`,
    );
  }
  const simd = new StreamingResampler(48_000, 16_000).kernelKind === 'simd';
  printNode(
    await benchNode(),
    simd ? 'WebAssembly SIMD kernel' : 'JS kernel (this engine has no WebAssembly SIMD)',
  );
  if (simd)
    printNode(
      await benchNode({ simd: false, rounds: 1 }),
      'JS kernel, as engines without WebAssembly SIMD run it',
    );
}

function printNode(node: NodeBenchResult, kernel: string): void {
  const t = (x: { realTimeFactor: number; cpuRealTimeFactor: number; cpuMs: number }) =>
    `${String(x.cpuRealTimeFactor).padStart(5)}× real time by CPU time (${(x.cpuMs / 1000).toFixed(2)} s), ${x.realTimeFactor}× by wall clock`;
  const perBlock = (cpuMs: number) => `${((cpuMs * 1000) / node.blocks).toFixed(1)} µs per 2048-frame block`;
  console.log(
    `[worker code, Node, ${kernel}] ${node.seconds / 60}-minute 48 kHz take, ${node.windows} windows, ` +
      `median of ${node.rounds} alternating round(s) (load ${load()}):`,
  );
  console.log(
    `  floor: resampler alone                                           ${t(node.resampler)}; ${perBlock(node.resampler.cpuMs)}`,
  );
  console.log(
    `  whole path (gap check → resampler → live pitch → slicer → wav)   ${t(node.path)}; ${perBlock(node.path.cpuMs)}`,
  );
  console.log(
    `  whole path ÷ resampler alone: ${node.costRatio.toFixed(2)} by CPU time ` +
      `(goal ≤ 2: the path's real-time factor at least half the resampler's; goal for the path ≥ 500×)`,
  );
  console.log(
    `  memory held over the take (garbage collected before each reading): ArrayBuffers peak +${node.peakArrayBuffersDeltaMb} MB, ` +
      `heap +${node.peakHeapDeltaMb} MB, RSS +${node.peakRssDeltaMb} MB; at most ${node.peakOpenWindows} window(s) open at once ` +
      `(the whole take as 48 kHz float32 would be ${node.wholeTakeMb} MB)`,
  );
}
if (process.env.BENCH_SKIP_BROWSER) {
  console.log('[Chromium] skipped (BENCH_SKIP_BROWSER)');
} else {
  const b = await benchBrowser();
  console.log(
    `[Chromium, ${THROTTLE}× CPU throttling] scene take of ${b.takeSeconds.toFixed(1)} s (count-in included), ${b.lines} lines: ` +
      `${b.longTasks} main-thread long tasks > 50 ms (worst ${b.worstLongTaskMs} ms) with the pitch guide on (the last take); dropped frames worklet/worker ${b.dropped}`,
  );
  console.log(
    `[Chromium, ${THROTTLE}× CPU throttling] pitch guide, ${b.guideRuns.rounds} rounds alternating without/with it: long tasks without ${b.guideRuns.off}; ` +
      `with ${b.guideRuns.on}; added by the guide in all: ${b.guideRuns.added}`,
  );
  console.log(
    `[Chromium] the learner in time with the clip: the microphone's file ${b.mic.delay.toFixed(3)} s ahead of the clip ` +
      `in a first take on the looping file, then measured again in a second (neither counted); each measured take's lines ` +
      `cut from their speech at (median, range; + = later sound): ${b.mic.inTime}`,
  );
  console.log(
    `[Chromium, ${THROTTLE}× CPU throttling] line end → score shown: p50 ${b.p50} ms, p95 ${b.p95} ms (n = ${b.latencies.length}); ` +
      `subTitlesScores in sessionStorage at the end: ${b.storedScoresKb} K characters`,
  );
  const step = (xs: number[] | undefined) =>
    xs?.length ? `${Math.round(quantile(xs, 0.5))} / ${Math.round(quantile(xs, 0.95))} ms` : '—';
  const tails = b.stages.tail ?? [];
  const early = tails.filter((ms) => ms < DEFAULT_WINDOW_MARGIN_SECONDS * 1000 - 1).length;
  console.log(
    `[Chromium, ${THROTTLE}× CPU throttling] line end → score, p50 / p95 per step (src/app/features/dub/pipeline-timing.ts): ` +
      `line end → window closed ${step(tails)} ` +
      `(${early} of ${tails.length} windows closed at the learner's silence before their ${DEFAULT_WINDOW_MARGIN_SECONDS * 1000} ms margin), ` +
      `encode ${step(b.stages.encode)}, hand-off ${step(b.stages.handoff)}, queue ${step(b.stages.queue)}, ` +
      `upload + score ${step(b.stages['upload+score'])}, paint ${step(b.stages.paint)}`,
  );
  console.log(
    `[Chromium, ${THROTTLE}× CPU throttling] long animation frames during the take: ${b.loaf.frames}; ` +
      `where their time went (top, summed ms):\n${formatAttribution(b.loaf.top) || '    (none)'}` +
      (b.loaf.worst ? `\n  the longest frame, ${b.loaf.worst}` : ''),
  );
  if (b.trace) {
    console.log(
      `[Chromium, Chrome trace] ${b.trace.tasks} main-thread tasks > 50 ms (worst ${b.trace.worstMs} ms, ` +
        `${b.trace.totalMs} ms in all, tracing overhead included); exclusive time by trace event:\n` +
        formatAttribution(b.trace.top),
    );
  }
  if (b.profile) {
    console.log(
      `[Chromium, CPU profile] ${b.profile.stretches} busy stretches > 50 ms (worst ${b.profile.worstMs} ms, ` +
        `profiler overhead included); self time by source:\n${formatAttribution(b.profile.bySelf)}\n` +
        `  by the deepest frame in src/:\n${formatAttribution(b.profile.byOurFrame)}`,
    );
  }
  if (b.failed.length)
    console.log(`[Chromium] lines the service refused: ${b.failed.length}\n  ${b.failed.join('\n  ')}`);
}
console.log(`load average at end ${load()} (the machine is shared: figures vary with it)`);
