import pino from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ScoringPool } from '../../server/ai/pool';
import { startScoringWorker } from '../../server/ai/queue';
import { DEMO_ACCOUNT } from '../../server/auth/users';
import { startTestServer, type TestServer } from '../support/server';
import { postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { type AnyEnvelope, client } from './support/http';
import { dropRedisPrefix, newRedisPrefix, SKIP_REDIS, testRedisUrl } from './support/redis';

/**
 * With REDIS_URL set, takes are scored by `npm run start:ai-worker` processes. When none runs, every
 * upload answers 503 "评分排队中": the log (at start and on each such upload) and /health say why.
 */
const NO_WORKER = /^no scoring worker is consuming the queue/;

describeEngines('no scoring worker consumes the queue', (engine) => {
  if (SKIP_REDIS) return it.skip('needs Redis');
  const prefix = newRedisPrefix();
  const lines: Array<{ level: number; msg: string }> = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      seedDemo: true,
      env: { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, SCORE_TIMEOUT_MS: '1000', LOG_LEVEL: 'warn' },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    await seedAiFilm(server.app);
  });
  afterAll(async () => {
    await server?.close();
    await dropRedisPrefix(prefix);
  });
  const warnings = () => lines.filter((l) => l.level === 40 && NO_WORKER.test(l.msg));
  const scoringHealth = async () =>
    ((await (await fetch(`${server.url}/health`)).json()) as AnyEnvelope).data.engines.scoring;

  it('the log says so at start, /health names the problem, and each upload that waits in vain logs it again', async () => {
    expect(warnings()).toHaveLength(1);
    expect(await scoringHealth()).toMatchObject({ ok: true, mode: 'queue', workers: 0 });
    expect((await scoringHealth()).problem).toMatch(NO_WORKER);

    const me = await client(server.url).login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password);
    const upload = await postTake(server.url, me.token, { takeId: `no-worker-${engine}` });
    expect(upload.status).toBe(503);
    expect(upload.body.msg).toMatch(/^评分排队中/);
    expect(warnings()).toHaveLength(2);
  });

  it('once a worker runs, /health counts it and names no problem', async () => {
    const log = pino({ level: 'silent' });
    const running = startScoringWorker(
      server.config,
      {
        db: server.app.db,
        storage: server.app.storage,
        pool: new ScoringPool(1),
        log,
        config: server.config,
      },
      log,
    );
    try {
      await vi.waitFor(async () => expect((await scoringHealth()).workers).toBeGreaterThan(0), {
        timeout: 10_000,
        interval: 100,
      });
      expect((await scoringHealth()).problem).toBeUndefined();
    } finally {
      await running.close();
    }
  });
});
