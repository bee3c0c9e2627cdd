/**
 * npm run bench:api — the producer service under autocannon, each call beside its floor.
 *
 * For SQLite and PostgreSQL (skipped with a message when no server answers at TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test), in one run:
 *  1. our service in a child process (bench/api-server.ts: production defaults, demo account and films);
 *  2. each call answered once, its status, headers and body recorded, then once more: the SQL
 *     statements the second request sent (every request under load; the first, which fills the
 *     catalogue cache, in brackets);
 *  3. the floor in another child (bench/api-floor.ts): a bare Fastify server answering those exact bytes;
 *  4. autocannon from this process, BENCH_CONNECTIONS (10) connections for BENCH_SECONDS (10) per
 *     server and call, ours and the floor in alternating slices (BENCH_SLICES, 5); requests/s, p50
 *     and p99 over every response, the server process's CPU time per request, and ours / floor for
 *     both (the CPU ratio is floor µs ÷ ours: like requests/s, 1 would mean as cheap as the floor).
 *     On a shared machine CPU per request moves much less with the load than requests/s.
 * The film list and saves are measured twice: as one learner, and by BENCH_LEARNERS learners in turn
 * (one learner's saves of one film queue behind the lock of that learner's one film_progress row).
 * After the film list and each save, the same without HTTP: the route's function (listFilms,
 * saveQuestionRecord) called in our server's process by as many loops at once as there are
 * connections, for as long, printed beside the floor's requests/s of the same run: the most the call
 * could reach over HTTP with its database work as it is (PostgreSQL shares the machine's cores).
 * Every request carries a different X-Forwarded-For from a pool of 4096 addresses, as many learners
 * do: the per-IP limits (600/min, 240/min on the login poll, 60/min on saves) stay real and are not hit.
 * The bench server trusts loopback as its proxy (TRUST_PROXY, bench/api-server.ts), as a deployment
 * trusts its nginx; without it the header would count for nothing.
 *
 * `BENCH_PROFILE=<dir>` also records a CPU profile of our server per call (V8's sampler, as
 * `node --cpu-prof`) and prints where its time went, by the suspects that decide an API's cost.
 * `BENCH_CALLS=list,detail` runs only those calls; `BENCH_ENGINES=sqlite` only that engine;
 * `BENCH_LOG_LEVEL=warn` runs our server with request logging off.
 *
 * `npm run bench:api:check` (`--check`): the quick form a developer runs before stopping. The film
 * list alone, 6 s per server, on SQLite and on PostgreSQL when it answers, its requests/s ratio to
 * the floor of the same run printed beside CHECK_BOUNDS; exit code 1 when one is below its bound.
 * A ratio, not a time: the floor shares the machine's load. On a loaded machine (load average above
 * the cores) autocannon and the floor starve first and the ratio reads high: the check says so.
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { postgresAvailable, testDatabaseUrl } from '../tests/support/server';
import type { FloorRoute } from './api-floor';
import { type Child, startChild } from './child';
import { clientAddresses, envelopeData } from './requests';
import type { NodeCpuProfile } from './cpu-profile';
import { apiSuspects, formatSuspects } from './api-suspects';
import fs from 'node:fs';
import { LEARNERS, learnerAccount } from './api-learners';

const CHECK = process.argv.includes('--check');
const SECONDS = Number(process.env.BENCH_SECONDS ?? (CHECK ? 6 : 10));
/** The film list's requests/s ÷ the floor's that --check requires (docs/performance.md, "The film list against its floor"). */
const CHECK_BOUNDS = { sqlite: 0.25, postgres: 0.2 } as const;
const SLICES = Number(process.env.BENCH_SLICES ?? 5);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const P = '/producer';

interface Call {
  key: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Tokens taken in turn, one per request: the call made by that many learners. */
  tokens?: string[];
}

interface Measured {
  total: number;
  /** The server process's CPU time per request (µs). */
  cpuUs: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const load = () => os.loadavg()[0].toFixed(1);

/** Per engine, the film list's ratios to the floor in this run (for --check). */
const listRatios: { engine: 'sqlite' | 'postgres'; rps: number; cpu: number }[] = [];

const signIn = async (base: string, account: string, password: string) =>
  (
    await envelopeData<{ token: string }>(
      await fetch(`${base}${P}/site_products/login_pwd`, {
        method: 'POST',
        // Each from an address of its own, as learners sign in (the login limit is per address).
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
        body: JSON.stringify({ account, password }),
      }),
    )
  ).token;

/** The calls, with what they need (tokens, a film, a QR request, a valid set of answers). */
async function prepareCalls(base: string): Promise<Call[]> {
  const token = await signIn(base, 'demo', 'demo123456');
  const learners: string[] = [];
  for (let i = 1; i <= LEARNERS; i++) {
    const { account, password } = learnerAccount(i);
    learners.push(await signIn(base, account, password));
  }
  const list = await envelopeData<{ list: { id: string }[] }>(
    await fetch(`${base}${P}/active_relation_two/show_film_picture?_v=1`, { headers: { token } }),
  );
  const qr = await envelopeData<{ url: string; pickupKey: string }>(
    await fetch(`${base}${P}/site_products/qr_url`),
  );
  const uuid = new URL(qr.url).searchParams.get('uuid');
  const prpo = await envelopeData<{ list: { id: string }[] }>(
    await fetch(`${base}${P}/active_relation_one/show_film_picture`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
      body: '_v=1&page=1',
    }),
  );
  const quiz = await envelopeData<{ questions: { id: string; kind: string; options: { id: string }[] }[] }>(
    await fetch(`${base}${P}/active_relation_one/get_film_info`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ id: prpo.list[0].id }),
    }),
  );
  const answers = quiz.questions.map((q) => ({
    questionId: q.id,
    value: q.kind === 'text' ? '因为她很生气' : q.kind === 'single' ? q.options[0].id : [q.options[0].id],
  }));
  const jsonHeaders = { token, 'content-type': 'application/json' };
  return [
    {
      key: 'list',
      name: 'film list (GET show_film_picture)',
      method: 'GET',
      path: `${P}/active_relation_two/show_film_picture?_v=1`,
      headers: { token },
    },
    {
      // The same list by LEARNERS learners in turn: on PostgreSQL the lists asked for together are
      // read by one statement (server/takes/runs.ts, pageLoader), which one learner's would share anyway.
      key: 'list-learners',
      name: `film list, ${LEARNERS} learners in turn`,
      method: 'GET',
      path: `${P}/active_relation_two/show_film_picture?_v=1`,
      headers: { token },
      tokens: learners,
    },
    {
      key: 'detail',
      name: 'film detail (POST get_film_info)',
      method: 'POST',
      path: `${P}/active_relation_two/get_film_info`,
      headers: jsonHeaders,
      body: JSON.stringify({ id: list.list[0].id }),
    },
    {
      key: 'poll',
      name: 'login status poll (get_wx_login_status)',
      method: 'GET',
      path: `${P}/site_products/get_wx_login_status?uuid=${uuid}`,
      // The kiosk's poll: it carries the screen's pickup key (docs/api.md).
      headers: { 'qr-pickup-key': qr.pickupKey },
    },
    {
      // Last: every save adds a record, which the other calls would then read.
      key: 'save',
      name: 'save answers (POST save_question_record)',
      method: 'POST',
      path: `${P}/active_relation_one/save_question_record`,
      headers: jsonHeaders,
      body: JSON.stringify({ filmId: prpo.list[0].id, durationMs: 95_000, answers }),
    },
    {
      // The same save by LEARNERS learners in turn: each raises its own film_progress row, so saves
      // of different learners do not queue behind one row's lock as one learner's do above.
      key: 'save-learners',
      name: `save answers, ${LEARNERS} learners in turn`,
      method: 'POST',
      path: `${P}/active_relation_one/save_question_record`,
      headers: jsonHeaders,
      body: JSON.stringify({ filmId: prpo.list[0].id, durationMs: 95_000, answers }),
      tokens: learners,
    },
  ];
}

/** Our answer to one call, as the floor will repeat it (hop-by-hop and per-response headers left out). */
async function record(base: string, call: Call): Promise<FloorRoute> {
  const res = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${call.name} answered HTTP ${res.status}: ${body.toString()}`);
  const headers: Record<string, string> = {};
  for (const [k, v] of res.headers) {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k))
      headers[k] = v;
  }
  return {
    method: call.method,
    path: call.path.split('?')[0],
    status: res.status,
    headers,
    bodyBase64: body.toString('base64'),
  };
}

let tokenCounter = 0;
const nextIp = clientAddresses(0);

function once(base: string, call: Call, seconds: number, latencies: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: call.method,
            path: call.path,
            headers: call.headers,
            body: call.body,
            setupRequest: (req) => ({
              ...req,
              headers: {
                ...req.headers,
                'x-forwarded-for': nextIp(),
                ...(call.tokens ? { token: call.tokens[tokenCounter++ % call.tokens.length] } : {}),
              },
            }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN;

/**
 * Ours and the floor in alternating slices (SLICES of SECONDS / SLICES each), so both see the same
 * load from the rest of the machine; requests/s over all slices, p50 / p99 over every response.
 */
async function measurePair(
  ours: Child<{ url: string }>,
  floor: Child<{ url: string }>,
  call: Call,
  profile: { start: () => Promise<void>; stop: () => Promise<void> } | null,
): Promise<[Measured, Measured]> {
  const slice = SECONDS / SLICES;
  const sides = [ours, floor].map((child) => ({
    child,
    latencies: [] as number[],
    total: 0,
    cpu: 0,
    non2xx: 0,
    errors: 0,
  }));
  // Warm-up (JIT, caches, connection pools), not counted.
  for (const side of sides) await once(side.child.ready.url, call, WARM_UP_SECONDS, []);
  for (let i = 0; i < SLICES; i++) {
    for (const [k, side] of sides.entries()) {
      if (k === 0) await profile?.start();
      await side.child.command({ cmd: 'cpu-start' });
      const r = await once(side.child.ready.url, call, slice, side.latencies);
      side.cpu += await side.child.command<number>({ cmd: 'cpu-stop' });
      if (k === 0) await profile?.stop();
      side.total += r.requests.total;
      side.non2xx += r.non2xx;
      side.errors += r.errors;
    }
  }
  return sides.map((side) => {
    const sorted = side.latencies.sort((a, b) => a - b);
    return {
      total: side.total,
      cpuUs: side.cpu / Math.max(1, side.total),
      rps: side.total / SECONDS,
      p50: Math.round(quantile(sorted, 0.5) * 10) / 10,
      p99: Math.round(quantile(sorted, 0.99) * 10) / 10,
      non2xx: side.non2xx,
      errors: side.errors,
    };
  }) as [Measured, Measured];
}

async function runEngine(engine: 'sqlite' | 'postgres', only: Set<string> | null): Promise<void> {
  const ours = await startChild<{ url: string }>('bench/api-server.ts', { BENCH_ENGINE: engine });
  let floor: Child<{ url: string }> | null = null;
  try {
    const calls = (await prepareCalls(ours.ready.url)).filter((c) => !only || only.has(c.key));
    const routes: FloorRoute[] = [];
    const statements: string[][] = [];
    const coldStatements: number[] = [];
    for (const call of calls) {
      // The floor answers a path once (the same save by other learners answers the same bytes).
      const answered = routes.some((r) => r.method === call.method && r.path === call.path.split('?')[0]);
      // The first request fills the catalogue cache (5 s: the films, lines, questions, actor contours);
      // the second sends what every request under load sends, the figure printed (the first in brackets).
      await ours.command({ cmd: 'count-start' });
      const route = await record(ours.ready.url, call);
      if (!answered) routes.push(route);
      coldStatements.push((await ours.command<string[]>({ cmd: 'count-stop' })).length);
      await ours.command({ cmd: 'count-start' });
      await record(ours.ready.url, call);
      statements.push(await ours.command<string[]>({ cmd: 'count-stop' }));
    }
    floor = await startChild<{ url: string }>('bench/api-floor.ts', {}, routes);
    console.log(
      `\n${engine}: ${CONNECTIONS} connections, ${SECONDS} s per server and call (load average ${load()} at start)`,
    );
    console.log(
      `${'call'.padEnd(40)}|  ours: req/s   p50   p99 CPU µs/req | floor: req/s   p50   p99 CPU µs/req | ours/floor: req/s  CPU | SQL/req (first)`,
    );
    for (const [i, call] of calls.entries()) {
      const file = PROFILE_DIR ? path.join(PROFILE_DIR, `${engine}-${call.key}.cpuprofile`) : null;
      // One profile over all of our slices: the profiler is resumed and paused around each.
      let part = 0;
      const parts: string[] = [];
      const profile = file
        ? {
            start: () => ours.command<void>({ cmd: 'profile-start' }),
            stop: async () => {
              const f = `${file}.${part++}`;
              parts.push(f);
              await ours.command({ cmd: 'profile-stop', file: f });
            },
          }
        : null;
      const [a, b] = await measurePair(ours, floor, call, profile);
      const bad = a.non2xx + a.errors + b.non2xx + b.errors;
      const side = (m: Measured) =>
        `${m.rps.toFixed(0).padStart(12)} ${m.p50.toFixed(1).padStart(5)} ${m.p99.toFixed(1).padStart(5)} ${m.cpuUs.toFixed(0).padStart(11)}`;
      console.log(
        `${call.name.padEnd(40)}|${side(a)} |${side(b)} | ${(a.rps / b.rps).toFixed(3).padStart(17)} ${(b.cpuUs / a.cpuUs).toFixed(3).padStart(5)}` +
          ` | ${`${statements[i].length} (${coldStatements[i]})`.padStart(7)}` +
          (bad ? `  (non-2xx/errors: ours ${a.non2xx}/${a.errors}, floor ${b.non2xx}/${b.errors})` : '') +
          `  [load ${load()}]`,
      );
      if (call.key === 'list') listRatios.push({ engine, rps: a.rps / b.rps, cpu: b.cpuUs / a.cpuUs });
      if (call.key !== 'detail' && call.key !== 'poll' && !CHECK) {
        const direct = await ours.command<{ done: number; cpuUs: number }>({
          cmd: 'direct',
          call: call.key.startsWith('list') ? 'list' : 'save',
          seconds: SECONDS,
          concurrency: CONNECTIONS,
          tokens: call.tokens ?? [call.headers.token],
          input: JSON.parse(call.body ?? '{}'),
        });
        const rps = direct.done / SECONDS;
        console.log(
          `${'  the same without HTTP'.padEnd(40)}|${rps.toFixed(0).padStart(12)}${''.padStart(12)} ${(direct.cpuUs / Math.max(1, direct.done)).toFixed(0).padStart(11)} |` +
            `${''.padStart(36)}| ${(rps / b.rps).toFixed(3).padStart(17)} of the floor's req/s  [load ${load()}]`,
        );
      }
      if (file) {
        const profiles = parts.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as NodeCpuProfile);
        console.log(formatSuspects(apiSuspects(profiles), a.total, `${file}.0…${parts.length - 1}`));
        console.log(`    statements per request: ${statements[i].map((q) => q.slice(0, 60)).join(' | ')}`);
      }
    }
  } finally {
    await floor?.stop();
    await ours.stop();
  }
}

async function main(): Promise<void> {
  const only = CHECK
    ? new Set(['list'])
    : process.env.BENCH_CALLS
      ? new Set(process.env.BENCH_CALLS.split(','))
      : null;
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
  console.log(
    `bench:api — node ${process.version}, ${os.cpus().length} cores shared by the server, the floor and autocannon` +
      ` (one at a time); load average ${load()}`,
  );
  for (const engine of engines) {
    if (engine === 'postgres' && !(await postgresAvailable())) {
      console.log(`\npostgres: skipped, no server answers at ${testDatabaseUrl()} (set TEST_DATABASE_URL)`);
      continue;
    }
    await runEngine(engine, only);
  }
  console.log(`\nload average at end ${load()} (the machine is shared: compare ratios taken in one run)`);
  if (CHECK) check();
}

/** --check: each engine's film list ratio beside its bound; exit code 1 below one. */
function check(): void {
  if (listRatios.length === 0) throw new Error('--check: the film list was not measured');
  console.log(`\nfilm list, ours ÷ floor requests/s in this run, beside the bound:`);
  let below = false;
  for (const { engine, rps, cpu } of listRatios) {
    const bound = CHECK_BOUNDS[engine];
    below ||= rps < bound;
    console.log(
      `  ${engine.padEnd(10)} ${rps.toFixed(3)} ${rps < bound ? '<' : '≥'} ${bound}  ${rps < bound ? 'BELOW' : 'ok'}  (CPU ratio ${cpu.toFixed(3)})`,
    );
  }
  if (os.loadavg()[0] > os.cpus().length)
    console.log(
      `  the load average (${load()}) is above the ${os.cpus().length} cores: the floor and autocannon starve first and the ratio reads high; run it again on a quieter machine`,
    );
  if (below) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
