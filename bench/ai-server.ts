/**
 * Child of `npm run bench:ai`: a real server (SQLite, temporary data dir) with the AI service, the
 * demo account and a scoring film. Sends `{ ready: { url, token, workers } }` over IPC, answers the
 * bench's profiler commands, and closes on SIGTERM, removing everything it created.
 */
import { DEMO_ACCOUNT } from '../server/auth/users';
import { seedAiFilm } from '../tests/server/ai-support';
import { startTestServer } from '../tests/support/server';
import { closeOnSignal, serveProfilerCommands } from './child';

const workers = process.env.BENCH_AI_WORKERS ?? '2';
const server = await startTestServer({
  seedDemo: true,
  // The bench measures the scorer, not the per-IP rate limit.
  env: { AI_WORKERS: workers, RATE_LIMIT_PER_MINUTE: '10000000' },
});
await seedAiFilm(server.app);
const res = await fetch(`${server.url}/producer/site_products/login_pwd`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ account: DEMO_ACCOUNT.account, password: DEMO_ACCOUNT.password }),
});
const login = (await res.json()) as { data: { token: string } };
serveProfilerCommands();
closeOnSignal(server.close);
process.send?.({ ready: { url: server.url, token: login.data.token, workers: Number(workers) } });
