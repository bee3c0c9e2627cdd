/**
 * Lighthouse's performance audit of the pages a learner meets, mobile and desktop, against the
 * server `npm start` runs (server/main.ts: the built dist/ with its compressed copies, the API, the
 * demo films), each page loaded cold. Prints per page the score, FCP, LCP, TBT, the bytes
 * transferred and the LCP element, beside the goal; and the H5 report (the same run as the report
 * screen, drawn by the server as plain HTML without scripts) as the floor of the report.
 *
 * Lighthouse's defaults: mobile is a mid-range phone on slow 4G with 4× CPU slowdown, simulated from
 * one unthrottled load (so the figures swing with the machine's load, printed beside them); desktop
 * is its desktop preset.
 *
 * Usage: npm run build && npm run bench:lighthouse [-- --runs 3 --preset mobile --pages prpt,report]
 *   --runs N     loads per page and preset; the median by score is printed (default 1)
 *   --preset     mobile, desktop or both (default both)
 *   --pages      a comma list of the page names below (default all)
 *   --out DIR    also writes each load's whole Lighthouse result (JSON, opens in its report viewer)
 *   --identity   the browser asks for no compression (Accept-Encoding: identity): every byte goes
 *                out as it is, for comparison with a run without it on the same machine
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { desktopConfig } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { freePort } from '../tests/support/processes';
import { envelopeData } from './requests';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
const FIXTURES = path.join(ROOT, 'tests/fixtures/emodb');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/** The cookie the client keeps its token in (src/api/token.ts). */
const TOKEN_COOKIE = 'user-token';
const P = '/producer';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    preset: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '' },
    out: { type: 'string' },
    identity: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
type Preset = 'mobile' | 'desktop';
const PRESETS = (args.preset === 'both' ? ['mobile', 'desktop'] : [args.preset]) as Preset[];
if (!(RUNS >= 1) || !PRESETS.every((p) => p === 'mobile' || p === 'desktop')) {
  console.error('usage: npm run bench:lighthouse -- [--runs N] [--preset mobile|desktop|both] [--pages a,b]');
  process.exit(2);
}

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  console.error('dist/ is not built: run `npm run build` first (the bench measures the production client).');
  process.exit(1);
}
const assets = fs.readdirSync(path.join(DIST, 'assets'));
if (!assets.some((f) => f.endsWith('.js.br'))) {
  console.warn(
    'dist/assets has no .br copies: this build predates scripts/precompress.ts; rebuild to measure it.',
  );
}

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  return envelopeData<T>(await fetch(url, init));
}

async function waitReady(base: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    const ok = await fetch(`${base}/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer /ready within ${timeoutMs / 1000} s`);
}

interface Page {
  name: string;
  path: string;
  auth: boolean;
  /** Mobile score the page must reach (desktop: 100 for every page). null: no goal, measured only. */
  goal: number | null;
}

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  bytes: number;
  lcpElement: string;
}

/** One cold load of `url` in a new tab, with or without the learner's cookie. */
async function audit(
  browser: Browser,
  url: string,
  preset: Preset,
  token: string | null,
  saveAs: string | null,
): Promise<Figures> {
  await browser.deleteCookie(...(await browser.cookies()));
  if (token)
    await browser.setCookie({ name: TOKEN_COOKIE, value: token, domain: new URL(url).hostname, path: '/' });
  const page = await browser.newPage();
  try {
    const result = await lighthouse(
      url,
      {
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(args.identity ? { extraHeaders: { 'Accept-Encoding': 'identity' } } : {}),
      },
      preset === 'desktop' ? desktopConfig : undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (saveAs) fs.writeFileSync(saveAs, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const n = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const element = lhr.audits['largest-contentful-paint-element']?.details as
      | { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] }
      | undefined;
    const node = element?.items?.[0]?.items?.[0]?.node;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: n('first-contentful-paint'),
      lcp: n('largest-contentful-paint'),
      tbt: n('total-blocking-time'),
      bytes: n('total-byte-weight'),
      lcpElement: (node?.snippet ?? node?.nodeLabel ?? '-').replace(/\s+/g, ' ').slice(0, 60),
    };
  } finally {
    await page.close();
  }
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const s = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lighthouse-'));
// `npm start` itself (server/main.ts), on a free port with an empty data folder: it seeds the demo
// account and imports the demo films as a first start does.
const server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let browser: Browser | null = null;
const chromeProfile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lighthouse-chromium-'));
try {
  console.log(`Starting the server (npm start's server/main.ts) on ${base}, DATA_DIR ${dataDir} …`);
  await waitReady(base, server, 600_000);

  // The learner: the demo account, one part-two run with answers and a take on each of two lines,
  // so the report has its dubbing, its emotion arc and its progress curve to draw.
  const { token } = await api<{ token: string }>(`${base}${P}/site_products/login_pwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'demo', password: 'demo123456' }),
  });
  const auth = { token };
  const films = await api<{ list: { id: string }[] }>(`${base}${P}/active_relation_two/show_film_picture`, {
    headers: auth,
  });
  if (!films.list.length) throw new Error('the server has no part-two film (DEMO_CONTENT=false?)');
  const film = await api<{
    id: string;
    subtitlesList: { id: string }[];
    questions: { id: string; kind: string; options: { id: string }[] }[];
  }>(`${base}${P}/active_relation_two/get_film_info`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ id: films.list[0].id }),
  });
  if (film.questions.length) {
    await api(`${base}${P}/active_relation_two/save_question_record`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        filmId: film.id,
        durationMs: 90_000,
        answers: film.questions.map((q) => ({
          questionId: q.id,
          value:
            q.kind === 'text' ? '因为她很生气' : q.kind === 'single' ? q.options[0].id : [q.options[0].id],
        })),
      }),
    });
  }
  const wavs = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.wav'));
  for (const [i, line] of film.subtitlesList.slice(0, 2).entries()) {
    for (const attempt of [1, 2]) {
      const form = new FormData();
      form.set('filmId', film.id);
      form.set('subtitlesId', line.id);
      form.set('attempt', String(attempt));
      const wav = fs.readFileSync(path.join(FIXTURES, wavs[(2 * i + attempt) % wavs.length]));
      form.set('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'take.wav');
      await api(`${base}/ai/speech_emotion`, { method: 'POST', headers: auth, body: form });
    }
  }
  // Asking for the report starts the dubbed video's render: let it finish before measuring, so no
  // load sees an ffmpeg beside it.
  for (let i = 0; i < 240; i++) {
    const report = await api<{ dubVideo?: { status: string } }>(
      `${base}${P}/active_relation_two/get_info_by_id?filmId=${film.id}`,
      { headers: auth },
    );
    if (report.dubVideo?.status !== 'rendering') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const h5 = await api<{ url: string }>(`${base}${P}/active_relation_two/get_report_url?filmId=${film.id}`, {
    headers: auth,
  });

  const PAGES: Page[] = [
    { name: 'prpt', path: '/prpt', auth: false, goal: 95 },
    { name: 'login', path: '/prpt/login', auth: false, goal: 95 },
    { name: 'prpo', path: '/prpo', auth: true, goal: null },
    { name: 'movies', path: '/prpt/movies', auth: true, goal: 95 },
    { name: 'cinema', path: `/prpt/cinema/${film.id}`, auth: true, goal: 95 },
    { name: 'dub', path: `/prpt/dub/${film.id}`, auth: true, goal: 90 },
    { name: 'report', path: `/prpt/report?filmId=${film.id}`, auth: true, goal: 90 },
    { name: 'h5-report', path: new URL(h5.url).pathname, auth: false, goal: null },
  ];
  const wanted = args.pages ? new Set(args.pages.split(',')) : null;
  const pages = wanted ? PAGES.filter((p) => wanted.has(p.name)) : PAGES;
  if (!pages.length) throw new Error(`--pages names none of ${PAGES.map((p) => p.name).join(', ')}`);

  if (args.out) fs.mkdirSync(args.out, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: false, // --headless is in CHROMIUM_ARGS, so the flags are exactly these
    args: CHROMIUM_ARGS,
    userDataDir: chromeProfile,
  });
  console.log(
    `Lighthouse ${JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version}, ` +
      `${await browser.version()}, ${RUNS} run(s) per page (median by score), ` +
      `${args.identity ? 'Accept-Encoding: identity, ' : ''}${os.cpus().length} cores, load ${load()}\n`,
  );
  const header = `${'preset'.padEnd(8)}${'page'.padEnd(11)}${'score'.padStart(6)}${'goal'.padStart(6)}${'FCP'.padStart(8)}${'LCP'.padStart(8)}${'TBT'.padStart(9)}${'bytes'.padStart(10)}  LCP element`;
  console.log(header);
  const misses: string[] = [];
  for (const preset of PRESETS) {
    for (const page of pages) {
      const runs: Figures[] = [];
      for (let r = 0; r < RUNS; r++) {
        const saveAs = args.out ? path.join(args.out, `${preset}-${page.name}-${r + 1}.json`) : null;
        runs.push(await audit(browser, base + page.path, preset, page.auth ? token : null, saveAs));
      }
      runs.sort((a, b) => a.score - b.score);
      const f = runs[Math.floor(runs.length / 2)];
      const goal = page.name === 'h5-report' ? null : preset === 'desktop' ? 100 : page.goal;
      if (goal !== null && f.score < goal) misses.push(`${preset} ${page.name} ${f.score} < ${goal}`);
      const spread = runs.length > 1 ? ` (${runs.map((x) => x.score).join('/')})` : '';
      console.log(
        `${preset.padEnd(8)}${page.name.padEnd(11)}${String(f.score).padStart(6)}${(goal === null ? '—' : `≥${goal}`).padStart(6)}` +
          `${s(f.fcp).padStart(8)}${s(f.lcp).padStart(8)}${`${Math.round(f.tbt)} ms`.padStart(9)}${kib(f.bytes).padStart(10)}  ${f.lcpElement}${spread}`,
      );
    }
  }
  console.log(`\nload average after: ${load()}`);
  console.log(misses.length ? `Below the goal: ${misses.join('; ')}` : 'Every page reaches its goal.');
} finally {
  await browser?.close().catch(() => undefined);
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(chromeProfile, { recursive: true, force: true });
}
