import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME, bullPrefix } from '../../server/ai/queue';
import { connectDb } from '../../server/db/connect';
import { loadConfig } from '../../server/config';
import { S3MediaStorage } from '../../server/storage/s3-storage';
import { type AnyEnvelope, client } from '../server/support/http';
import { postgresAvailable } from '../support/server';
import { REDIS_UP } from '../server/support/redis';
import { jsonLines, ROOT } from '../support/processes';
import { type Cluster, startCluster } from './support/cluster';
import { NGINX } from './support/nginx';

const FIXTURES = path.join(ROOT, 'tests/fixtures/emodb');
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'fixtures.json'), 'utf8')) as {
  takes: Array<{ file: string; matchesLine: number; relation: 'match' | 'mismatch' }>;
};
const FILM = 'rag-on-the-fridge';
/** A worker's job lock in this test; how long a dead worker's job waits before another takes it. */
const LOCK_MS = 4_000;

const missing = [
  ...((await postgresAvailable()) ? [] : ['PostgreSQL']),
  ...(REDIS_UP ? [] : ['Redis']),
  ...(fs.existsSync(NGINX) ? [] : [`nginx (${NGINX}; Debian package nginx)`]),
];
const SKIP = missing.length > 0 && process.env.CI !== 'true';
if (SKIP) console.warn(`\n[cluster] SKIPPED: ${missing.join(', ')} not available.\n`);

/** The scoring queue of the cluster, read the way a worker sees it. */
function jobQueue(env: Record<string, string>) {
  const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
  const queue = new Queue(QUEUE_NAME, { connection, prefix: bullPrefix(loadConfig(env)) });
  return {
    getJobState: (id: string) => queue.getJobState(id),
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

interface AppLine {
  msg: string;
  instance: string;
  reqId?: string;
  path?: string;
  status?: number;
  time: number;
  job?: string;
  takeId?: string;
}

interface Take {
  takeId: string;
  subtitlesId: string;
  attempt: 1 | 2;
  wav: Buffer;
}

interface Acknowledged {
  take: Take;
  score: AnyEnvelope['data'];
  tries: number;
  /** X-Request-Id of every try (nginx's $request_id), to find the instance that served it. */
  requestIds: string[];
  at: number;
}

/** Sends a take as the web client's upload queue does: same takeId on every retry, backoff on 502/503/504 or a dropped connection. */
async function upload(base: string, token: string, take: Take): Promise<Acknowledged> {
  const requestIds: string[] = [];
  let last = '';
  for (let tries = 1; tries <= 40; tries++) {
    const form = new FormData();
    form.set('subtitlesId', take.subtitlesId);
    form.set('filmId', FILM);
    form.set('attempt', String(take.attempt));
    form.set('takeId', take.takeId);
    form.set('file', new Blob([take.wav], { type: 'audio/wav' }), `${take.subtitlesId}.wav`);
    try {
      const res = await fetch(`${base}/ai/speech_emotion`, {
        method: 'POST',
        headers: { token },
        body: form,
      });
      requestIds.push(res.headers.get('x-request-id') ?? '');
      const body = (await res.json().catch(() => null)) as AnyEnvelope | null;
      if (res.status === 200 && body?.code === 200)
        return { take, score: body.data, tries, requestIds, at: Date.now() };
      last = `HTTP ${res.status} ${body?.msg ?? ''}`;
      if (![502, 503, 504].includes(res.status)) break;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * tries)));
  }
  throw new Error(`take ${take.takeId} was never acknowledged: ${last}`);
}

/** Runs `jobs` with at most `n` at a time. */
async function inParallel<T, R>(items: T[], n: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await job(items[i]);
      }
    }),
  );
  return results;
}

/** A GET through nginx from another loopback address, so this client has a rate-limit bucket of its own. */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id'] ?? '') }),
      );
    });
    req.on('error', reject);
  });
}

describe.skipIf(SKIP)(
  'a cluster: nginx, two app instances, two scoring workers, PostgreSQL, Redis, S3',
  () => {
    let cluster: Cluster;
    let subtitleIds: string[];
    const workerLines = () =>
      cluster.everyProcess
        .filter((p) => p.name.startsWith('worker-'))
        .flatMap((w) => jsonLines<AppLine>(w.lines));
    /** Which instance answered each request id (its one log line, written once the answer is sent). */
    const servedBy = (ids: string[]) =>
      Promise.all(
        ids.map(async (id) => {
          const line = await Promise.any(
            cluster.everyProcess
              .filter((p) => p.name.startsWith('app-'))
              .map((a) =>
                a.waitForLine(
                  (l) => l.includes(`"reqId":"${id}"`) && l.includes('"msg":"request"'),
                  `the line of ${id}`,
                ),
              ),
          );
          return (JSON.parse(line) as AppLine).instance;
        }),
      );
    const fixtureTakes = (tag: string, rounds: number): Take[] =>
      Array.from({ length: rounds }, (_, round) =>
        manifest.takes.map((t) => ({
          takeId: `${tag}-${round}-${t.file.replace('.wav', '')}`,
          subtitlesId: subtitleIds[t.matchesLine - 1],
          attempt: t.relation === 'match' ? (1 as const) : (2 as const),
          wav: fs.readFileSync(path.join(FIXTURES, t.file)),
        })),
      ).flat();

    beforeAll(async () => {
      cluster = await startCluster({ lockMs: LOCK_MS });
      const c = client(cluster.url);
      await c.login('learner', 'learner-pass-1');
      const film = await c.postJson('/producer/active_relation_two/get_film_info', { id: FILM });
      subtitleIds = film.body.data.subtitlesList.map((s: { id: string }) => s.id);
    }, 240_000);
    afterAll(async () => {
      if (!cluster) return;
      const scored = workerLines().filter((l) => l.msg === 'job scored');
      const perWorker = ['worker-1', 'worker-2'].map(
        (w) => `${w} ${scored.filter((l) => l.instance === w).length}`,
      );
      console.log(`[cluster] takes scored per worker over the whole run: ${perWorker.join(', ')}`);
      await cluster.stop();
    }, 120_000);

    it('signs in on one instance, confirms by QR on the other, dubs through both and reads the report', async () => {
      const kiosk = client(cluster.appUrls[0]);
      const qr = await kiosk.get('/producer/site_products/qr_url');
      const link = new URL(qr.body.data.url);
      const uuid = link.searchParams.get('uuid') ?? '';
      const pickupKey = qr.body.data.pickupKey as string;
      const status = (wait: number) =>
        kiosk.get(
          '/producer/site_products/get_wx_login_status',
          { uuid, wait: String(wait) },
          { 'qr-pickup-key': pickupKey },
        );

      const scannedPoll = status(25_000);
      const page = await fetch(`${cluster.appUrls[1]}${link.pathname}${link.search}`);
      expect(page.status).toBe(200);
      expect((await scannedPoll).body.data.state).toBe('scanned');

      // Listen on the cluster's QR channel as a third instance would: the confirming instance must
      // publish the change (the poll would otherwise see it only at its 2 s database re-read).
      const listener = new Redis(cluster.env.REDIS_URL);
      await listener.subscribe(`${cluster.env.REDIS_PREFIX}:qr`);
      const published = new Promise<void>((resolve) =>
        listener.on('message', (_channel: string, message: string) => message === uuid && resolve()),
      );
      const confirmedPoll = status(25_000);
      const phone = client(cluster.appUrls[1]);
      const confirm = await phone.send('POST', '/producer/h5/qr/confirm', {
        json: { uuid, account: 'learner', password: 'learner-pass-1' },
      });
      const confirmedAt = Date.now();
      expect(confirm.body.code).toBe(200);
      await published;
      listener.disconnect();
      const signedIn = await confirmedPoll;
      const pushMs = Date.now() - confirmedAt;
      expect(signedIn.body.data).toMatchObject({ status: true, state: 'confirmed' });
      const token = signedIn.body.data.token as string;

      const learner = client(cluster.url);
      learner.setToken(token);
      const film = (await learner.postJson('/producer/active_relation_two/get_film_info', { id: FILM })).body
        .data;
      const saved = await learner.postJson('/producer/active_relation_two/save_question_record', {
        filmId: FILM,
        answers: film.questions.map((q: { id: string; options: Array<{ id: string }> }) => ({
          questionId: q.id,
          value: q.options[0]?.id ?? '',
        })),
      });
      expect(saved.body.code).toBe(200);

      const acknowledged = await inParallel(fixtureTakes('journey', 1), 2, (t) =>
        upload(cluster.url, token, t),
      );
      const instances = await servedBy(acknowledged.flatMap((a) => a.requestIds));
      expect(new Set(instances)).toEqual(new Set(['app-1', 'app-2']));

      const report = await learner.get('/producer/active_relation_two/get_info_by_id', undefined, {
        'content-type': 'application/json',
      });
      expect(report.body.code).toBe(200);
      const lines = report.body.data.dubbing.lines as Array<{
        first: { overall: number } | null;
        second: unknown;
      }>;
      expect(lines).toHaveLength(subtitleIds.length);
      expect(lines.every((l) => l.first !== null)).toBe(true);
      expect(lines.filter((l) => l.second !== null)).toHaveLength(
        manifest.takes.filter((t) => t.relation === 'mismatch').length,
      );

      // The take's wav is in the bucket, byte for byte, and plays back through nginx with a Range.
      const first = acknowledged[0];
      const key = (first.score.audioUrl as string).split('?')[0].replace('/media/', '');
      const config = loadConfig(cluster.env);
      if (config.storage.kind !== 's3') throw new Error('the cluster runs on S3');
      const bucket = new S3MediaStorage(config.storage);
      expect((await bucket.get(key)).equals(first.take.wav)).toBe(true);
      bucket.close();
      const ranged = await fetch(`${cluster.url}/producer${first.score.audioUrl}`, {
        headers: { token, range: 'bytes=0-43' },
      });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(first.take.wav.subarray(0, 44))).toBe(true);
      console.log(
        `[cluster] QR confirmed on app-2 → long poll on app-1 answered in ${pushMs} ms; ${acknowledged.length} takes, served by app-1 ×${instances.filter((i) => i === 'app-1').length}, app-2 ×${instances.filter((i) => i === 'app-2').length}, ${acknowledged.reduce((n, a) => n + a.tries - 1, 0)} retries`,
      );
    });

    it('holds a rate limit across instances', async () => {
      // qr_url allows 30 a minute per client address; each instance alone would allow 30 more.
      const answers: Array<{ status: number; requestId: string }> = [];
      for (let i = 0; i < 31; i++)
        answers.push(
          // The client's own X-Forwarded-For changes nothing: nginx sets it, and the apps trust only
          // nginx's (TRUST_PROXY=1).
          await getFrom('127.0.0.3', `${cluster.url}/producer/site_products/qr_url`, {
            'x-forwarded-for': `198.51.100.${i + 1}`,
          }),
        );
      expect(answers.slice(0, 30).map((a) => a.status)).toEqual(Array(30).fill(200));
      expect(answers[30].status).toBe(429);
      const instances = await servedBy(answers.map((a) => a.requestId));
      expect(new Set(instances)).toEqual(new Set(['app-1', 'app-2']));
    });

    it('SIGTERM on a worker inside a job finishes that job, then exits 0', async () => {
      const c = client(cluster.url);
      const me = await c.login('learner', 'learner-pass-1');
      const worker1 = cluster.workers[0];
      const seen = new Set(worker1.lines);
      const uploads = inParallel(fixtureTakes('sigterm', 2), 2, (t) => upload(cluster.url, me.token, t));
      const line = await worker1.waitForLine(
        (l) => l.includes('"job started"') && !seen.has(l),
        'a job on worker-1',
      );
      worker1.signal('SIGTERM');
      const job = (JSON.parse(line) as AppLine).job;
      const acknowledged = await uploads;
      expect(await worker1.exited).toEqual({ code: 0, signalled: false });
      const done = jsonLines<AppLine>(worker1.lines).filter((l) => l.job === job && l.msg !== 'job started');
      expect(done.map((l) => l.msg)).toEqual(['job scored']);
      expect(acknowledged.every((a) => a.score.takeId === a.take.takeId)).toBe(true);
      await cluster.startWorker(0);
    });

    it('kill -9 of an app instance and a worker mid-run loses no acknowledged take and no job', async () => {
      const c = client(cluster.url);
      const me = await c.login('learner', 'learner-pass-1');
      const takes: Take[] = [];
      const [app1, worker1] = [cluster.apps[0], cluster.workers[0]];
      const started = Date.now();
      let acked = 0;
      let fourThrough: () => void = () => {};
      const someThrough = new Promise<void>((resolve) => {
        fourThrough = resolve;
      });
      const uploadRound = (round: number) => {
        const more = fixtureTakes(`failover-${round}`, 3);
        takes.push(...more);
        return inParallel(more, 4, async (t) => {
          const a = await upload(cluster.url, me.token, t);
          acked += 1;
          if (acked === 4) fourThrough();
          return a;
        });
      };
      let uploads = uploadRound(0);
      // Once a few takes are through, freeze worker-1 as it starts a job; if Redis still holds that
      // job as active, the worker is inside it: kill it (and app-1) there. Otherwise it had finished
      // first: let it go on and catch its next job. A job takes milliseconds, so worker-1 may finish
      // every one it starts before the stop lands: when a round's takes are all through, send
      // another round, so there is always a next job to catch.
      const queue = jobQueue(cluster.env);
      let killedAt = 0;
      let killedJob = '';
      await someThrough;
      const seen = new Set(worker1.lines);
      try {
        for (let caught = 0, round = 1; !killedJob && caught < 40; caught++) {
          const line = await Promise.race([
            worker1.waitForLine(
              (l) => l.includes('"job started"') && !seen.has(l),
              'a job starting on worker-1',
            ),
            uploads.then(() => null),
          ]);
          if (line === null) {
            if (round === 5) break;
            const before = uploads;
            const next = uploadRound(round++);
            uploads = Promise.all([before, next]).then(([a, b]) => [...a, ...b]);
            continue;
          }
          seen.add(line);
          worker1.signal('SIGSTOP');
          const job = (JSON.parse(line) as AppLine).job ?? '';
          if ((await queue.getJobState(job)) === 'active') {
            worker1.signal('SIGKILL');
            app1.signal('SIGKILL');
            killedAt = Date.now();
            killedJob = job;
          } else worker1.signal('SIGCONT');
        }
      } finally {
        await queue.close();
      }
      expect(killedJob, 'worker-1 caught inside a job').not.toBe('');
      const acknowledged = await uploads;
      expect((await worker1.exited).signalled).toBe(true);
      expect((await app1.exited).signalled).toBe(true);

      // Every take acknowledged, each stored once with the acknowledged score and its exact wav.
      expect(acknowledged).toHaveLength(takes.length);
      const config = loadConfig(cluster.env);
      const { db } = connectDb(config);
      const bucket = config.storage.kind === 's3' ? new S3MediaStorage(config.storage) : null;
      try {
        const rows = await db
          .selectFrom('takes')
          .select(['id', 'result', 'audio_key', 'overall'])
          .where('user_id', '=', me.id)
          .execute();
        for (const a of acknowledged) {
          const mine = rows.filter((r) => JSON.parse(r.result).takeId === a.take.takeId);
          expect(mine, a.take.takeId).toHaveLength(1);
          expect(mine[0].overall).toBe(a.score.overall);
          expect((await bucket?.get(mine[0].audio_key))?.equals(a.take.wav)).toBe(true);
        }
      } finally {
        await db.destroy();
        bucket?.close();
      }

      // No job lost or failed, none scored twice; the killed worker's job finished on the other one.
      const health = (await (await fetch(`${cluster.url}/health`)).json()) as AnyEnvelope;
      expect(health.data.engines.scoring).toMatchObject({ ok: true, waiting: 0, active: 0, failed: 0 });
      const finished = workerLines().filter((l) => l.msg === 'job scored' || l.msg === 'job already stored');
      const scored = finished.filter((l) => l.msg === 'job scored');
      const perJob = new Map<string, number>();
      for (const l of scored) perJob.set(l.job ?? '', (perJob.get(l.job ?? '') ?? 0) + 1);
      expect([...perJob.values()].every((n) => n === 1)).toBe(true);
      const takeover = finished.find((l) => l.job === killedJob && l.instance === 'worker-2');
      const killedFinishedFirst = finished.some((l) => l.job === killedJob && l.instance === 'worker-1');
      if (!killedFinishedFirst) expect(takeover, `job ${killedJob} taken over by worker-2`).toBeDefined();
      const firstAfterKill = Math.min(...acknowledged.filter((a) => a.at > killedAt).map((a) => a.at));

      const retried = acknowledged.filter((a) => a.tries > 1);
      const perWorker = ['worker-1', 'worker-2'].map(
        (w) =>
          `${w} ${scored.filter((l) => l.instance === w && takes.some((t) => t.takeId === l.takeId)).length}`,
      );
      console.log(
        [
          `[cluster] failover run: ${takes.length} takes in ${((Date.now() - started) / 1000).toFixed(1)} s, all acknowledged and stored once`,
          `[cluster] takes scored per worker: ${perWorker.join(', ')}`,
          `[cluster] kill -9 of app-1 and worker-1 (in job ${killedJob.slice(0, 8)}) → ${retried.length} uploads retried (max ${Math.max(...acknowledged.map((a) => a.tries))} tries); first acknowledgement after the kill ${firstAfterKill - killedAt} ms`,
          killedFinishedFirst
            ? '[cluster] worker-1 had finished its job before the kill landed: no takeover needed'
            : `[cluster] worker failover: the killed job finished on worker-2 ${(takeover?.time ?? 0) - killedAt} ms after the kill (job lock ${LOCK_MS} ms)`,
        ].join('\n'),
      );

      // Bring both back, so the cluster is whole again for whatever runs next.
      await Promise.all([cluster.startApp(0), cluster.startWorker(0)]);
    });
  },
);
