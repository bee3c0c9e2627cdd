/**
 * Child of `npm run bench:soak`: the producer and AI services as `npm start` runs them (request log at
 * `info`, load shedding on, the production per-route limits), with the demo account and films and the
 * soak's learners (`soak-1` … `soak-<SOAK_LEARNERS>`, password `soak-pass-1`). One bench process is one
 * address, so the all-routes limit per IP, the login limit and the daily take bytes are raised by
 * environment (RATE_LIMIT_PER_MINUTE, LOGIN_RATE_LIMIT_PER_MINUTE, TAKES_UPLOAD_MB_PER_DAY), the way an
 * operator would for a kiosk room behind one NAT address; no forwarded-address header is sent. Its
 * learners retake each line many times, which TAKES_ATTEMPTS_PER_LINE allows.
 * Sends `{ ready: { url, engine, pid } }` and answers `mem` with process.memoryUsage().
 */
import { addUser } from '../tests/server/support/seed';
import { startTestServer, type TestEngine } from '../tests/support/server';
import { closeOnSignal, serveCommands } from './child';

const engine = (process.env.BENCH_ENGINE ?? 'sqlite') as TestEngine;
const learners = Number(process.env.SOAK_LEARNERS ?? 8);
const server = await startTestServer({
  engine,
  seedDemo: true,
  importDemo: true,
  env: {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    MAX_EVENT_LOOP_DELAY_MS: '1000',
    AI_WORKERS: process.env.AI_WORKERS ?? '1',
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    TAKES_UPLOAD_MB_PER_DAY: '0',
    TAKES_ATTEMPTS_PER_LINE: '100',
  },
});
for (let i = 1; i <= learners; i++) await addUser(server.app.db, `soak-${i}`, 'soak-pass-1', `压测学员${i}`);
serveCommands({ mem: () => process.memoryUsage() });
closeOnSignal(server.close);
process.send?.({ ready: { url: server.url, engine, pid: process.pid } });
