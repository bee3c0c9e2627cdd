/**
 * npm run bench:api:hooks — the film list's CPU per request without sockets or a load generator, in
 * one process: Fastify's `inject` into our server (every hook, limit, log line and serialisation of
 * `npm start`'s defaults), into a bare Fastify answering the same bytes (the floor), and the route's
 * function (listFilms) alone. Rounds alternate so all three see the same machine; the least of each
 * and the median are printed. Then the SQL statements one request sends, each with its CPU per run
 * inside a request and alone (the thread's CPU clock around each run), beside what compiling it costs:
 * SQLite plans some statements again on every run (a join, an ORDER BY or a LIMIT with bound values).
 *
 * What bench:api cannot separate: on a loaded machine autocannon and the floor starve first, and the
 * HTTP parts (sockets, parsing) are the floor's as well as ours. Here what separates our request from
 * the floor's is our hooks and plugins, and what separates it from listFilms is the same plus routing.
 * `BENCH_REQUESTS` (4000) per side and round; SQLite only (the session is checked in its own statement).
 * `BENCH_PROFILE=<file.cpuprofile>` also records V8's sampling profile of our side's rounds alone (one
 * thread, no sockets: its shares are the request's own work), for bench/cpu-profile.ts.
 * Then the bytes each side allocates per request (V8's sampling heap profiler, every 256 bytes,
 * garbage included): unlike CPU time it does not move with the machine's load, and what is
 * allocated is what the garbage collector later pays for.
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pino from 'pino';
import { filmListRequest } from '../src/api/contract';
import { listFilms } from '../server/films/queries';
import { startTestServer } from '../tests/support/server';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = 5;
const URL_PATH = '/producer/active_relation_two/show_film_picture';

// CPU per run of each statement while `timing` is on (better-sqlite3's statement methods, wrapped once).
const timing = { on: false, spent: new Map<string, { runs: number; us: number }>() };
const Statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<
  'all' | 'get' | 'run',
  (this: SQLite.Statement, ...a: unknown[]) => unknown
>;
for (const method of ['all', 'get', 'run'] as const) {
  const original = Statement[method];
  Statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    if (!timing.on) return original.apply(this, args);
    const start = process.threadCpuUsage();
    try {
      return original.apply(this, args);
    } finally {
      const used = process.threadCpuUsage(start);
      const entry = timing.spent.get(this.source) ?? { runs: 0, us: 0 };
      entry.runs++;
      entry.us += used.user + used.system;
      timing.spent.set(this.source, entry);
    }
  };
}

const server = await startTestServer({
  engine: 'sqlite',
  seedDemo: true,
  importDemo: true,
  // As bench/api-server.ts: production defaults, request log at info (here to /dev/null, written at once
  // as server/app.ts writes stdout), proxy trusted.
  env: {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    MAX_EVENT_LOOP_DELAY_MS: '1000',
    TRUST_PROXY: 'loopback',
  },
  logStream: pino.destination({ dest: '/dev/null', sync: true }),
});
const app = server.app;
const signIn = await app.inject({
  method: 'POST',
  url: '/producer/site_products/login_pwd',
  payload: { account: 'demo', password: 'demo123456' },
});
const token = (signIn.json() as { data: { token: string } }).data.token;
let ip = 0;
// Each from another address of 4096, as bench/api.ts sends them: the per-IP limits count and are not hit.
const ours = () =>
  app.inject({
    method: 'GET',
    url: `${URL_PATH}?_v=1`,
    headers: { token, 'x-forwarded-for': `10.0.${(ip >> 8) & 15}.${ip++ & 255}` },
  });
const answer = await ours();
if (answer.statusCode !== 200) throw new Error(`the film list answered ${answer.statusCode}: ${answer.body}`);
const floorApp = Fastify({ logger: false });
const headers = Object.fromEntries(
  Object.entries(answer.headers).filter(([k]) => !['date', 'connection', 'content-length'].includes(k)),
) as Record<string, string>;
floorApp.get(URL_PATH, (_request, reply) => reply.headers(headers).send(answer.rawPayload));
await floorApp.ready();
const floor = () => floorApp.inject({ method: 'GET', url: `${URL_PATH}?_v=1` });
const deps = { db: app.db, storage: app.storage };
const { page, pageSize } = filmListRequest.parse({});
const alone = () => listFilms(deps, token, 'prpt', page, pageSize);

const sides = { floor, ours, 'listFilms alone': alone } as Record<string, () => Promise<unknown>>;
const cpu = new Map<string, number[]>(Object.keys(sides).map((k) => [k, []]));
for (const f of Object.values(sides)) for (let i = 0; i < 300; i++) await f();
const profileFile = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const session = profileFile ? new inspector.Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, f] of Object.entries(sides)) {
    const profiled = session && name === 'ours';
    // Started and stopped around the loop, outside the CPU clock; one file per round.
    if (profiled) await session.post('Profiler.start');
    const start = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) await f();
    const used = process.cpuUsage(start);
    if (profiled && profileFile) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(`${profileFile}.${round}`, JSON.stringify(profile));
    }
    cpu.get(name)?.push((used.user + used.system) / REQUESTS);
  }
}
session?.disconnect();
console.log(
  `bench:api:hooks — SQLite film list, ${REQUESTS} requests × ${ROUNDS} rounds per side, ${answer.rawPayload.length} bytes; load average ${os.loadavg()[0].toFixed(1)}`,
);
const heap = new inspector.Session();
heap.connect();
await heap.post('HeapProfiler.enable');
interface HeapNode {
  selfSize: number;
  children: HeapNode[];
}
const bytesIn = (n: HeapNode): number => n.children.reduce((sum, c) => sum + bytesIn(c), n.selfSize);
const allocated = new Map<string, number>();
for (const [name, f] of Object.entries(sides)) {
  await heap.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < REQUESTS; i++) await f();
  const { profile } = (await heap.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: HeapNode };
  };
  allocated.set(name, bytesIn(profile.head) / REQUESTS);
}
heap.disconnect();
const least = (name: string) => Math.min(...(cpu.get(name) ?? []));
const median = (name: string) => [...(cpu.get(name) ?? [])].sort((a, b) => a - b)[ROUNDS >> 1];
for (const name of Object.keys(sides))
  console.log(
    `  ${name.padEnd(16)} CPU µs per request: least ${least(name).toFixed(0).padStart(4)}, median ${median(name).toFixed(0).padStart(4)}` +
      `; allocates ${((allocated.get(name) ?? 0) / 1024).toFixed(1).padStart(5)} KB` +
      (name === 'floor' ? '' : `  (floor ÷ this, least: ${(least('floor') / least(name)).toFixed(3)})`),
  );

// Compiling a statement, on a connection of its own (no statement cache): a statement whose run
// costs about this much is planned again on every run (docs/performance.md, "The film list against its floor").
const compiler = new SQLite(path.join(server.config.dataDir, 'app.sqlite'), { readonly: true });
const prepareUs = (sql: string) => {
  let least = Number.POSITIVE_INFINITY;
  // Enough compiles per round for the CPU clock's ticks to count.
  for (let round = 0; round < 3; round++) {
    const start = process.threadCpuUsage();
    for (let i = 0; i < 2000; i++) compiler.prepare(sql);
    const used = process.threadCpuUsage(start);
    least = Math.min(least, (used.user + used.system) / 2000);
  }
  return least;
};
for (const [name, f] of [
  ['in our request', ours],
  ['in listFilms alone', alone],
] as const) {
  timing.spent.clear();
  timing.on = true;
  for (let i = 0; i < REQUESTS; i++) await f();
  timing.on = false;
  console.log(`  statements ${name}, CPU µs per run (and to compile it):`);
  for (const [sql, { runs, us }] of timing.spent)
    if (runs * 100 >= REQUESTS)
      console.log(
        `    ${(us / runs).toFixed(1).padStart(6)} (${prepareUs(sql).toFixed(1).padStart(5)})  ${(runs / REQUESTS).toFixed(2)} per request  ${sql.slice(0, 70)}`,
      );
}
compiler.close();
console.log(`load average at end ${os.loadavg()[0].toFixed(1)}`);
await floorApp.close();
await server.close();
