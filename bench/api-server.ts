/**
 * Child of `npm run bench:api`: the producer service as `npm start` runs it (production defaults:
 * request logging at `info`, rate limits, load shedding), on SQLite or PostgreSQL (`BENCH_ENGINE`),
 * with the demo account and the demo films. Sends `{ ready: { url, engine } }` over IPC and answers
 * the bench's commands: CPU profiles, and the SQL statements sent while counting (`count-start` /
 * `count-stop`, so the bench can print how many statements one request costs).
 * `BENCH_LOG_LEVEL` overrides the log level (to measure what logging costs).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { startTestServer, type TestEngine } from '../tests/support/server';
import { closeOnSignal, serveCommands, serveProfilerCommands } from './child';

// Every statement reaches the database through one of these calls: a better-sqlite3 statement
// run (the server reuses prepared statements, server/db/connect.ts) or pg's client.query.
let statements: string[] | null = null;
const Statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<
  'all' | 'get' | 'run' | 'iterate',
  (this: SQLite.Statement, ...a: unknown[]) => unknown
>;
for (const method of ['all', 'get', 'run', 'iterate'] as const) {
  const original = Statement[method];
  Statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    statements?.push(this.source);
    return original.apply(this, args);
  };
}
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (typeof args[0] === 'string') statements?.push(args[0]);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const engine = (process.env.BENCH_ENGINE ?? 'sqlite') as TestEngine;
const server = await startTestServer({
  engine,
  seedDemo: true,
  importDemo: true,
  env: {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // startTestServer turns load shedding off for servers sharing the test's event loop; this one
    // has its own process, so it gets the production default back.
    MAX_EVENT_LOOP_DELAY_MS: '1000',
    // The bench stands where nginx would, on loopback, and names each simulated learner in
    // X-Forwarded-For (bench/api.ts); the server trusts it as a deployment trusts its proxy.
    TRUST_PROXY: 'loopback',
  },
});
serveProfilerCommands();
serveCommands({
  'count-start': () => {
    statements = [];
  },
  'count-stop': () => {
    const sent = statements ?? [];
    statements = null;
    return sent;
  },
});
closeOnSignal(server.close);
process.send?.({ ready: { url: server.url, engine } });
