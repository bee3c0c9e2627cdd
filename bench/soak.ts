/**
 * npm run bench:soak -- --minutes N [--engine sqlite|postgres] [--interval S]
 *
 * A soak: mixed authenticated traffic at steady rates against a real server that the bench starts in
 * its own process (bench/soak-server.ts: production defaults, demo films, SOAK_LEARNERS learners).
 * Each learner logs in once; then, open loop (requests leave on schedule whatever the answers do):
 *   film list (GET show_film_picture)        SOAK_LIST_PER_S   (default 20/s)
 *   film detail (POST get_film_info)         SOAK_DETAIL_PER_S (10/s)
 *   login status poll (get_wx_login_status)  SOAK_POLL_PER_S   (3/s: under its 240/min per address)
 *   save answers (POST save_question_record) SOAK_SAVE_PER_S   (0.8/s: under its 60/min per address)
 *   take upload (POST /ai/speech_emotion)    SOAK_TAKE_PER_S   (2/s, real EmoDB takes)
 * One line per interval (default 10 s): requests, errors, p50/p99 of all calls and of uploads, the
 * server's RSS and heap. At the end a summary with every error by call and answer. Exits 1 when any
 * answer was a 5xx or a network error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startChild } from './child';
import { envelopeData } from './requests';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'sqlite' },
    interval: { type: 'string', default: '10' },
  },
});
const MINUTES = Number(args.minutes);
const INTERVAL_S = Number(args.interval);
if (!(MINUTES > 0) || !(INTERVAL_S > 0) || !['sqlite', 'postgres'].includes(String(args.engine))) {
  console.error('usage: npm run bench:soak -- --minutes N [--engine sqlite|postgres] [--interval S]');
  process.exit(2);
}
const rate = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RATES = {
  list: rate('SOAK_LIST_PER_S', 20),
  detail: rate('SOAK_DETAIL_PER_S', 10),
  poll: rate('SOAK_POLL_PER_S', 3),
  save: rate('SOAK_SAVE_PER_S', 0.8),
  take: rate('SOAK_TAKE_PER_S', 2),
};
type Kind = keyof typeof RATES;
const KINDS = Object.keys(RATES) as Kind[];
const LEARNERS = Number(process.env.SOAK_LEARNERS ?? 8);
/** Requests in flight beyond this are not sent but counted: the client, not the server, is the limit. */
const MAX_IN_FLIGHT = 256;
const P = '/producer';
const FIXTURES = path.resolve(import.meta.dirname, '../tests/fixtures/emodb');

interface Answer {
  status: number;
  code: number | null;
  msg: string;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { code: number; msg: string };
    return { status: res.status, code: body.code, msg: body.msg };
  } catch {
    return { status: res.status, code: null, msg: text.slice(0, 80) };
  }
}

async function data<T>(url: string, init: RequestInit = {}): Promise<T> {
  return envelopeData<T>(await fetch(url, init));
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
const ms = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(1) : x.toFixed(0));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const server = await startChild<{ url: string; engine: string; pid: number }>('bench/soak-server.ts', {
  BENCH_ENGINE: String(args.engine),
  SOAK_LEARNERS: String(LEARNERS),
});
const base = server.ready.url;
const mem = () => server.command<NodeJS.MemoryUsage>({ cmd: 'mem' });

try {
  // Set-up: every learner logs in; the films, a prpt film's lines, a prpo film's questions.
  const tokens: string[] = [];
  for (let i = 1; i <= LEARNERS; i++) {
    const login = await data<{ token: string }>(`${base}${P}/site_products/login_pwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: `soak-${i}`, password: 'soak-pass-1' }),
    });
    tokens.push(login.token);
  }
  const auth = (k: number) => ({ token: tokens[k % tokens.length] });
  const prpt = await data<{ list: { id: string }[] }>(`${base}${P}/active_relation_two/show_film_picture`, {
    headers: auth(0),
  });
  const film = await data<{ id: string; subtitlesList: { id: string }[] }>(
    `${base}${P}/active_relation_two/get_film_info`,
    {
      method: 'POST',
      headers: { ...auth(0), 'content-type': 'application/json' },
      body: JSON.stringify({ id: prpt.list[0].id }),
    },
  );
  const prpo = await data<{ list: { id: string }[] }>(`${base}${P}/active_relation_one/show_film_picture`, {
    method: 'POST',
    headers: { ...auth(0), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'page=1',
  });
  const quiz = await data<{
    id: string;
    questions: { id: string; kind: string; options: { id: string }[] }[];
  }>(`${base}${P}/active_relation_one/get_film_info`, {
    method: 'POST',
    headers: { ...auth(0), 'content-type': 'application/json' },
    body: JSON.stringify({ id: prpo.list[0].id }),
  });
  const answers = quiz.questions.map((q) => ({
    questionId: q.id,
    value: q.kind === 'text' ? '因为她很生气' : q.kind === 'single' ? q.options[0].id : [q.options[0].id],
  }));
  const takes = fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.wav'))
    .map((f) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, f))));
  // The QR request a kiosk would poll; a new one when it expires (qr_url allows 30/min).
  let qr = { uuid: '', cookie: '', at: 0 };
  const freshQr = async () => {
    const res = await fetch(`${base}${P}/site_products/qr_url`);
    const body = (await res.json()) as { data: { url: string } };
    const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    qr = { uuid: new URL(body.data.url).searchParams.get('uuid') ?? '', cookie, at: Date.now() };
  };
  await freshQr();

  const send: Record<Kind, (k: number) => Promise<Answer>> = {
    list: (k) => call(`${base}${P}/active_relation_two/show_film_picture?page=1`, { headers: auth(k) }),
    detail: (k) =>
      call(`${base}${P}/active_relation_two/get_film_info`, {
        method: 'POST',
        headers: { ...auth(k), 'content-type': 'application/json' },
        body: JSON.stringify({ id: prpt.list[k % prpt.list.length].id }),
      }),
    poll: async () => {
      if (Date.now() - qr.at > 90_000) await freshQr();
      return call(`${base}${P}/site_products/get_wx_login_status?uuid=${qr.uuid}&wait=0`, {
        headers: qr.cookie ? { cookie: qr.cookie } : {},
      });
    },
    save: (k) =>
      call(`${base}${P}/active_relation_one/save_question_record`, {
        method: 'POST',
        headers: { ...auth(k), 'content-type': 'application/json' },
        body: JSON.stringify({ filmId: quiz.id, answers, durationMs: 60_000 }),
      }),
    take: (k) => {
      const form = new FormData();
      form.set('filmId', film.id);
      form.set('subtitlesId', film.subtitlesList[k % film.subtitlesList.length].id);
      form.set('attempt', String(1 + (k % 2)));
      form.set('file', new Blob([takes[k % takes.length]], { type: 'audio/wav' }), 'take.wav');
      return call(`${base}/ai/speech_emotion`, { method: 'POST', headers: auth(k), body: form });
    },
  };

  console.log(
    `soak: ${MINUTES} min on ${server.ready.engine}, ${LEARNERS} learners, per second: ${KINDS.map((k) => `${k} ${RATES[k]}`).join(', ')}; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
  );
  const start = Date.now();
  const end = start + MINUTES * 60_000;
  const sent: Record<Kind, number> = { list: 0, detail: 0, poll: 0, save: 0, take: 0 };
  const errors = new Map<string, number>();
  const all: number[] = [];
  const allTakes: number[] = [];
  let window: { lat: number[]; takeLat: number[]; count: number; errors: number } = {
    lat: [],
    takeLat: [],
    count: 0,
    errors: 0,
  };
  let inFlight = 0;
  let skipped = 0;
  let fatal = 0;
  const rssSeen: number[] = [];
  const pending = new Set<Promise<void>>();

  const fire = (kind: Kind) => {
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      return;
    }
    const k = sent[kind]++;
    inFlight++;
    const t0 = performance.now();
    const p = send[kind](k)
      .then((a) => {
        const dt = performance.now() - t0;
        window.lat.push(dt);
        all.push(dt);
        if (kind === 'take') {
          window.takeLat.push(dt);
          allTakes.push(dt);
        }
        window.count++;
        if (a.status >= 400 || a.code !== 200) {
          window.errors++;
          const key = `${kind}: HTTP ${a.status} code ${a.code} ${a.msg}`;
          errors.set(key, (errors.get(key) ?? 0) + 1);
          if (a.status >= 500) fatal++;
        }
      })
      .catch((err: Error) => {
        window.errors++;
        fatal++;
        const key = `${kind}: ${err.message}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      })
      .finally(() => {
        inFlight--;
        pending.delete(p);
      });
    pending.add(p);
  };

  // Steady arrivals: every 50 ms each call type gets the sends its rate owes since the start.
  const owed = (kind: Kind, now: number) => Math.floor(((now - start) / 1000) * RATES[kind]);
  const ticker = setInterval(() => {
    const now = Math.min(Date.now(), end);
    for (const kind of KINDS) while (sent[kind] < owed(kind, now)) fire(kind);
  }, 50);

  const memStart = await mem();
  console.log(`  start: server RSS ${mb(memStart.rss)} MB, heap ${mb(memStart.heapUsed)} MB`);
  console.log(
    '  time    requests  errors   p50 ms   p99 ms   take p50/p99 ms   RSS MB   heap MB   in flight',
  );
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(INTERVAL_S * 1000, end - Date.now())));
    const w = window;
    window = { lat: [], takeLat: [], count: 0, errors: 0 };
    const m = await mem();
    rssSeen.push(m.rss);
    const lat = w.lat.sort((a, b) => a - b);
    const tl = w.takeLat.sort((a, b) => a - b);
    console.log(
      `  ${`${Math.round((Date.now() - start) / 1000)}s`.padStart(5)}   ${String(w.count).padStart(8)}  ${String(w.errors).padStart(6)}   ${ms(pct(lat, 50)).padStart(6)}   ${ms(pct(lat, 99)).padStart(6)}   ${`${ms(pct(tl, 50))}/${ms(pct(tl, 99))}`.padStart(15)}   ${mb(m.rss).padStart(6)}   ${mb(m.heapUsed).padStart(7)}   ${String(inFlight).padStart(9)}`,
    );
  }
  clearInterval(ticker);
  await Promise.all(pending);

  const sorted = all.sort((a, b) => a - b);
  const takeSorted = allTakes.sort((a, b) => a - b);
  const total = KINDS.reduce((n, k) => n + sent[k], 0);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`\nsoak summary (${server.ready.engine}, ${MINUTES} min):`);
  console.log(
    `  requests ${total} (${KINDS.map((k) => `${k} ${sent[k]}`).join(', ')}), not sent (client saturated) ${skipped}`,
  );
  console.log(
    `  all calls p50 ${ms(pct(sorted, 50))} ms, p99 ${ms(pct(sorted, 99))} ms; uploads p50 ${ms(pct(takeSorted, 50))} ms, p99 ${ms(pct(takeSorted, 99))} ms`,
  );
  console.log(
    `  server RSS ${mb(memStart.rss)} MB at start, ${mb(rssSeen.at(-1) ?? memStart.rss)} MB at the end, at most ${mb(Math.max(memStart.rss, ...rssSeen))} MB`,
  );
  console.log(`  errors ${errorCount} (5xx or no answer: ${fatal})`);
  for (const [key, n] of [...errors].sort((a, b) => b[1] - a[1]))
    console.log(`    ${String(n).padStart(6)}  ${key}`);
  process.exitCode = fatal > 0 ? 1 : 0;
} finally {
  await server.stop();
}
