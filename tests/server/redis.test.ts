import { Redis } from 'ioredis';
import pino from 'pino';
import { takeRowId } from '../../server/takes/repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScoringPool } from '../../server/ai/pool';
import { startScoringWorker } from '../../server/ai/queue';
import { QrEvents } from '../../server/auth/qr/qr-events';
import { DEMO_ACCOUNT } from '../../server/auth/users';
import { startTestServer, type TestServer } from '../support/server';
import { AI_FILM, fixtureWav, postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { type AnyEnvelope, client } from './support/http';
import { dropRedisPrefix, newRedisPrefix, SKIP_REDIS, testRedisUrl } from './support/redis';

describe.skipIf(SKIP_REDIS)('QR change notices over Redis pub/sub', () => {
  const channel = `${newRedisPrefix()}:qr`;
  const connections: Redis[] = [];
  const hub = () => {
    const publisher = new Redis(testRedisUrl());
    const subscriber = new Redis(testRedisUrl());
    connections.push(publisher, subscriber);
    return new QrEvents({ publisher, subscriber, channel });
  };
  afterAll(() => {
    for (const c of connections) c.disconnect();
  });

  it('wakes the poll of the same uuid on another instance, and only that one', async () => {
    const a = hub();
    const b = hub();
    await Promise.all([a.start(), b.start()]);
    const mine = b.changed('uuid-mine', 10_000);
    const other = b.changed('uuid-other', 300);
    await a.publish('uuid-mine');
    expect(await mine).toBe(true);
    expect(await other).toBe(false);
  });
});

describeEngines('several instances on one Redis', (engine) => {
  if (SKIP_REDIS) return it.skip('needs Redis');
  // The rate-limit pair counts requests in Redis under a prefix of its own; the queue server has another.
  // (Failed sign-ins are also counted in the database, which the pair does not share here.)
  const limitPrefix = newRedisPrefix();
  const prefix = newRedisPrefix();
  const limited = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: limitPrefix, RATE_LIMIT_PER_MINUTE: '4' };
  let a: TestServer;
  let b: TestServer;
  let q: TestServer;
  const jobLines: Array<{ msg: string; job?: string }> = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => jobLines.push(JSON.parse(line) as { msg: string; job?: string }) },
  );

  beforeAll(async () => {
    a = await startTestServer({ engine, seedDemo: true, env: limited });
    b = await startTestServer({ engine, seedDemo: true, env: limited });
    q = await startTestServer({
      engine,
      seedDemo: true,
      env: { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, SCORE_TIMEOUT_MS: '5000' },
    });
    await seedAiFilm(q.app);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), q?.close()]);
    await dropRedisPrefix(limitPrefix);
    await dropRedisPrefix(prefix);
  });

  const worker = () =>
    startScoringWorker(
      q.config,
      { db: q.app.db, storage: q.app.storage, pool: new ScoringPool(1), log, config: q.config },
      log,
    );

  it('shares the per-address request limit between instances', async () => {
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a]) {
      const res = await client(server.url).send('POST', '/producer/site_products/login_pwd', {
        json: { account: DEMO_ACCOUNT.account, password: 'wrong-password' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 4)).not.toContain(429);
    expect(statuses[4]).toBe(429);
  });

  it('/health reports Redis and the queue', async () => {
    const { data } = (await (await fetch(`${q.url}/health`)).json()) as AnyEnvelope;
    expect(data.engines.redis).toMatchObject({ ok: true, prefix });
    expect(data.engines.scoring).toMatchObject({ ok: true, mode: 'queue' });
  });

  it('scores an upload through the queue once, however often it is sent', async () => {
    const running = worker();
    try {
      const me = await client(q.url).login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password);
      const takeId = `queued-${engine}-1`;
      const wav = fixtureWav('15a01Wa.wav');
      const answers = await Promise.all([
        postTake(q.url, me.token, { file: wav, takeId }),
        postTake(q.url, me.token, { file: wav, takeId }),
      ]);
      const again = await postTake(q.url, me.token, { file: wav, takeId });
      for (const { status, body } of [...answers, again]) {
        expect(status).toBe(200);
        expect(body.data).toMatchObject({ takeId, filmId: AI_FILM });
        expect(body.data.overall).toBe(answers[0].body.data.overall);
      }
      const rows = await q.app.db
        .selectFrom('takes')
        .select(['id', 'audio_key'])
        .where('user_id', '=', me.id)
        // Only this take's rows: the demo learner may have takes from other cases.
        .where('id', '=', takeRowId(me.id, takeId))
        .execute();
      expect(rows).toHaveLength(1);
      expect(jobLines.filter((l) => l.msg === 'job scored' && l.job === rows[0].id)).toHaveLength(1);
      expect((await q.app.storage.get(rows[0].audio_key)).equals(Buffer.from(wav))).toBe(true);
    } finally {
      await running.close();
    }
  });

  it('answers busy when no worker scores in time, and the retry gets the one score', async () => {
    const me = await client(q.url).login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password);
    const takeId = `queued-${engine}-late`;
    const first = await postTake(q.url, me.token, { takeId });
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 503, data: { retryAfterSeconds: 2 } });
    const running = worker();
    try {
      const retry = await postTake(q.url, me.token, { takeId });
      expect(retry.status).toBe(200);
      expect(retry.body.data.takeId).toBe(takeId);
      const rows = await q.app.db
        .selectFrom('takes')
        .select('id')
        .where('user_id', '=', me.id)
        .where('result', 'like', `%${takeId}%`)
        .execute();
      expect(rows).toHaveLength(1);
      expect(jobLines.filter((l) => l.msg === 'job scored' && l.job === rows[0].id)).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});
