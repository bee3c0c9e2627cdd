/**
 * Child of `npm run bench:api`: the producer service as `npm start` runs it (production defaults:
 * request logging at `info`, rate limits, load shedding), on SQLite or PostgreSQL (`BENCH_ENGINE`),
 * with the demo account, the demo films and LEARNERS more learners (`bench1`…, bench/api-learners.ts). Sends `{ ready: { url, engine } }` over IPC and answers
 * the bench's commands: CPU profiles, the SQL statements sent while counting (`count-start` /
 * `count-stop`, so the bench can print how many statements one request costs), and the film list's
 * and the save's own work without HTTP (`direct`).
 * `BENCH_LOG_LEVEL` overrides the log level (to measure what logging costs).
 */
import { startCounting, stopCounting } from '../tests/server/support/statements';
import { startTestServer, type TestEngine } from '../tests/support/server';
import { closeOnSignal, serveCommands, serveProfilerCommands } from './child';
import { createUser } from '../server/auth/users';
import { LEARNERS, learnerAccount } from './api-learners';
import { saveQuestionRecord } from '../server/films/answers';
import { filmListRequest, type SaveQuestionRecordRequest } from '../src/api/contract';
import { listFilms } from '../server/films/queries';

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
// Learners of their own for the save call spread over learners (bench/api.ts, BENCH_LEARNERS).
for (let i = 1; i <= LEARNERS; i++) await createUser(server.app.db, learnerAccount(i));
serveProfilerCommands();
serveCommands({
  // The SQL statements sent meanwhile (tests/server/support/statements.ts hooks both drivers).
  'count-start': () => startCounting(),
  'count-stop': () => stopCounting().map((s) => s.sql),
  // A call's own work with no HTTP in front (bench/api.ts, "without HTTP"): the route's function
  // (the film list of part two, or the save of part one) called by `concurrency` loops at once for
  // `seconds`, the learners' tokens in turn.
  direct: async (m) => {
    const { call, seconds, concurrency, tokens, input } = m as unknown as {
      call: 'list' | 'save';
      seconds: number;
      concurrency: number;
      tokens: string[];
      input: SaveQuestionRecordRequest;
    };
    const deps = { db: server.app.db, storage: server.app.storage };
    const { page, pageSize } = filmListRequest.parse({});
    const work = (token: string) =>
      call === 'list'
        ? listFilms(deps, token, 'prpt', page, pageSize)
        : saveQuestionRecord(server.app.db, token, 'prpo', input);
    let done = 0;
    let next = 0;
    const cpu = process.cpuUsage();
    const until = performance.now() + seconds * 1000;
    const loop = async () => {
      while (performance.now() < until) {
        if (!(await work(tokens[next++ % tokens.length])))
          throw new Error('direct: a token with no live session');
        done++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    const used = process.cpuUsage(cpu);
    return { done, cpuUs: used.user + used.system };
  },
});
closeOnSignal(server.close);
process.send?.({ ready: { url: server.url, engine } });
