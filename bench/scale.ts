/**
 * npm run bench:scale — what a learner's history costs the calls that read it.
 *
 * For SQLite and PostgreSQL (PostgreSQL skipped with a message when no server answers at
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test) and a catalogue of 10 and of 200
 * part-two films: our service in a child process (bench/scale-server.ts, production defaults), one
 * learner per history size (0, 1, 100, 1 000 and 10 000 runs, written straight into the tables:
 * each run one answer record and two takes), and per learner the four calls that read a history:
 *  - film list (GET show_film_picture, the first page of 50 films),
 *  - film detail (POST get_film_info of the first film),
 *  - report (GET get_info_by_id: the most recently active run, its curve of 20 runs),
 *  - run history (GET get_run_history, 20 runs, as the app asks).
 * Each call through the real HTTP server with autocannon, BENCH_CONNECTIONS (1) connection for
 * BENCH_SECONDS (2) after a warm-up: p50 and p99 over every response and the server's CPU time per
 * request, beside the same call for the learner with no history (the floor: what the call costs
 * without a history to read; for the report, which needs a run, the learner with one), the SQL
 * statements one request sends, and the longest event-loop block of the server while the call ran
 * (perf_hooks monitorEventLoopDelay max: every other request waits that long).
 * Goal: at 10 000 runs, p99 ≤ 20 ms, no block over 50 ms, and p50 and CPU per request each within
 * 1.5× the floor, on both engines.
 * `BENCH_ENGINES=sqlite`, `BENCH_FILMS=10`, `BENCH_RUNS=0,10000` narrow the run; `BENCH_PROFILE=<dir>`
 * also writes a CPU profile of the server per row (`<engine>-<films>-<call>-<runs>.cpuprofile`, for
 * bench/cpu-profile.ts; the sampler adds to the CPU figures of that run).
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { postgresAvailable, testDatabaseUrl } from '../tests/support/server';
import { type Child, startChild } from './child';
import { clientAddresses, envelopeData } from './requests';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const WARM_UP_SECONDS = 0.5;
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const RUNS = (process.env.BENCH_RUNS ?? '0,1,100,1000,10000').split(',').map(Number);
const FILMS = (process.env.BENCH_FILMS ?? '10,200').split(',').map(Number);
const P2 = '/producer/active_relation_two';
const GOAL_P99_MS = 20;
const GOAL_BLOCK_MS = 50;
const GOAL_FLOOR_RATIO = 1.5;

const load = () => os.loadavg()[0].toFixed(1);

interface Call {
  key: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const CALLS = (filmId: string): Call[] => [
  { key: 'list', name: 'film list', method: 'GET', path: `${P2}/show_film_picture?_v=1` },
  {
    key: 'detail',
    name: 'film detail',
    method: 'POST',
    path: `${P2}/get_film_info`,
    body: JSON.stringify({ id: filmId }),
  },
  { key: 'report', name: 'report', method: 'GET', path: `${P2}/get_info_by_id` },
  { key: 'history', name: 'run history', method: 'GET', path: `${P2}/get_run_history?limit=20` },
];

const nextIp = clientAddresses(1);

function fire(base: string, call: Call, token: string, seconds: number, latencies: number[]) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: call.method,
            path: call.path,
            headers: { token, 'content-type': 'application/json' },
            body: call.body,
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextIp() } }),
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

interface Row {
  p50: number;
  p99: number;
  rps: number;
  /** The server process's CPU time per request (µs): moves far less with the machine's load. */
  cpuUs: number;
  statements: number;
  blockMs: number;
  bad: number;
}

async function measure(
  server: Child<{ url: string }>,
  call: Call,
  token: string,
  profileName: string,
): Promise<Row> {
  const base = server.ready.url;
  await fire(base, call, token, WARM_UP_SECONDS, []);
  await server.command({ cmd: 'idle' });
  await server.command({ cmd: 'count-start' });
  const one = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: { token, 'content-type': 'application/json' },
    body: call.body,
  });
  await envelopeData(one);
  await server.command({ cmd: 'idle' });
  const statements = (await server.command<string[]>({ cmd: 'count-stop' })).length;
  const latencies: number[] = [];
  await server.command({ cmd: 'loop-start' });
  if (PROFILE_DIR) await server.command({ cmd: 'profile-start', intervalUs: 100 });
  await server.command({ cmd: 'cpu-start' });
  const r = await fire(base, call, token, SECONDS, latencies);
  const cpu = await server.command<number>({ cmd: 'cpu-stop' });
  if (PROFILE_DIR)
    await server.command({ cmd: 'profile-stop', file: path.join(PROFILE_DIR, `${profileName}.cpuprofile`) });
  const blockMs = await server.command<number>({ cmd: 'loop-stop' });
  await server.command({ cmd: 'idle' });
  const sorted = latencies.sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    rps: r.requests.total / SECONDS,
    cpuUs: cpu / Math.max(1, r.requests.total),
    statements,
    blockMs,
    bad: r.non2xx + r.errors,
  };
}

/**
 * Logs the learner in once the server takes requests again: a bulk load of 10 000 runs holds the
 * event loop for seconds, and load shedding answers 503 until its delay sample recovers.
 */
async function settled(base: string, who: { account: string; password: string }): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/producer/site_products/login_pwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ account: who.account, password: who.password }),
    });
    if (res.status !== 503 || attempt === 30) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
  }
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1)).padStart(7);

async function runConfig(engine: 'sqlite' | 'postgres', films: number, misses: string[]): Promise<void> {
  const server = await startChild<{ url: string }>('bench/scale-server.ts', {
    BENCH_ENGINE: engine,
    BENCH_FILMS: String(films),
  });
  try {
    const learners: { runs: number; token: string }[] = [];
    for (const runs of [0, ...RUNS.filter((r) => r > 0)]) {
      const t0 = Date.now();
      const seeded = await server.command<{ account: string; password: string; films: number }>({
        cmd: 'seed',
        runs,
      });
      const login = await envelopeData<{ token: string }>(await settled(server.ready.url, seeded));
      learners.push({ runs, token: login.token });
      if (runs > 0) console.log(`  (${runs} runs seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    const list = await envelopeData<{ list: { id: string }[]; total: number }>(
      await fetch(`${server.ready.url}${P2}/show_film_picture?_v=1`, {
        headers: { token: learners[0].token },
      }),
    );
    console.log(
      `\n${engine}, ${list.total} films (page of ${list.list.length}), ${CONNECTIONS} connection(s), ${SECONDS} s per row (load average ${load()})`,
    );
    console.log(
      `${'call'.padEnd(12)} ${'runs'.padStart(6)} |     p50     p99  req/s CPU µs/req | p50 ÷ floor CPU ÷ floor | SQL/req | loop block ms`,
    );
    for (const call of CALLS(list.list[0].id)) {
      // The floor: the same call for the learner without history; the report needs a run, so its
      // floor is the learner with one.
      let floor: Row | null = null;
      for (const learner of learners) {
        if (learner.runs > 0 && !RUNS.includes(learner.runs)) continue;
        if (call.key === 'report' && learner.runs === 0) continue;
        const row = await measure(
          server,
          call,
          learner.token,
          `${engine}-${films}-${call.key}-${learner.runs}`,
        );
        const isFloor = floor === null;
        floor ??= row;
        const overFloor =
          !isFloor && (row.p50 / floor.p50 > GOAL_FLOOR_RATIO || row.cpuUs / floor.cpuUs > GOAL_FLOOR_RATIO);
        const miss =
          learner.runs >= 10_000 && (row.p99 > GOAL_P99_MS || row.blockMs > GOAL_BLOCK_MS || overFloor)
            ? '  ← over the goal'
            : '';
        if (miss) misses.push(`${engine} ${films} films ${call.name} at ${learner.runs} runs`);
        const ratios = isFloor
          ? `${'floor'.padStart(11)} ${''.padStart(11)}`
          : `${(row.p50 / floor.p50).toFixed(2).padStart(11)} ${(row.cpuUs / floor.cpuUs).toFixed(2).padStart(11)}`;
        console.log(
          `${call.name.padEnd(12)} ${String(learner.runs).padStart(6)} | ${ms(row.p50)} ${ms(row.p99)} ${row.rps.toFixed(0).padStart(6)} ${row.cpuUs.toFixed(0).padStart(10)} |` +
            ` ${ratios} | ${String(row.statements).padStart(7)} | ${row.blockMs.toFixed(1).padStart(13)}` +
            (row.bad ? `  (${row.bad} non-2xx/errors)` : '') +
            `${miss}  [load ${load()}]`,
        );
      }
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
  console.log(
    `bench:scale — node ${process.version}, ${os.cpus().length} cores shared by the server and autocannon; load average ${load()}`,
  );
  console.log(
    `goal at 10 000 runs: p99 ≤ ${GOAL_P99_MS} ms, no event-loop block over ${GOAL_BLOCK_MS} ms, p50 and CPU per request each ≤ ${GOAL_FLOOR_RATIO}× the floor; the floor is the same call for a learner with no history (the report: one run)`,
  );
  const misses: string[] = [];
  for (const engine of engines) {
    if (engine === 'postgres' && !(await postgresAvailable())) {
      console.log(`\npostgres: skipped, no server answers at ${testDatabaseUrl()} (set TEST_DATABASE_URL)`);
      continue;
    }
    for (const films of FILMS) await runConfig(engine, films, misses);
  }
  console.log(
    `\n${misses.length ? `over the goal: ${misses.join('; ')}` : 'every call within the goal at 10 000 runs'} (load average at end ${load()})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
