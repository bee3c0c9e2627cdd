import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, ROOT, startNodeScript, type TestProcess } from '../../support/processes';
import { type S3TestServer, startS3Server } from '../../support/s3-server';
import { createTestSchema, dropTestSchema, testDatabaseUrl } from '../../support/server';
import { dropRedisPrefix, newRedisPrefix, testRedisUrl } from '../../server/support/redis';
import { startNginx } from './nginx';

export interface Cluster {
  /** nginx, the one address learners use. */
  url: string;
  apps: TestProcess[];
  appUrls: string[];
  workers: TestProcess[];
  /** Every app and worker process started, restarted ones included, for their logs. */
  everyProcess: TestProcess[];
  nginx: TestProcess;
  s3: S3TestServer;
  env: Record<string, string>;
  /** Starts app `i` (again) on its own port. */
  startApp: (i: number) => Promise<TestProcess>;
  startWorker: (i: number) => Promise<TestProcess>;
  stop: () => Promise<void>;
}

/**
 * Two app instances (npm start) and two scoring workers (npm run start:ai-worker) over one
 * PostgreSQL schema, one Redis key prefix and one S3 server (s3rver), behind nginx; every process
 * through tests/support/lifeline.mjs, every file in one temp folder; stop() undoes it all.
 */
export async function startCluster(opts: { lockMs: number }): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-cluster-'));
  const cleanups: Array<() => Promise<unknown>> = [
    async () => fs.rmSync(dir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch((err) => console.error('[cluster] cleanup:', err));
  };
  try {
    const schema = await createTestSchema();
    cleanups.push(() => dropTestSchema(schema));
    const prefix = newRedisPrefix();
    cleanups.push(() => dropRedisPrefix(prefix));
    const s3 = await startS3Server();
    cleanups.push(() => s3.close());

    const env: Record<string, string> = {
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_SCHEMA: schema,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      ...s3.env,
      S3_PREFIX: 'cluster',
      HOST: '127.0.0.1',
      AI_WORKERS: '1',
      LOG_LEVEL: 'info',
      SERVE_CLIENT: 'false',
      DEMO_CONTENT: 'false',
      SCORE_JOB_LOCK_MS: String(opts.lockMs),
      // The tests follow every acknowledged take to its row, and one learner sends ~60 takes to the
      // same run: retention must keep them all here (it is tested in tests/security/take-storage.test.ts).
      TAKES_RETAKES_KEPT: '100',
      // ...and accept them all: the spec's two takes per line are enforced and tested in
      // tests/server/ai-speech-emotion.test.ts, not what this test is about.
      TAKES_ATTEMPTS_PER_LINE: '100',
      // nginx is the one proxy hop in front of the apps (it sets X-Forwarded-For to the client).
      TRUST_PROXY: '1',
    };
    const dataDir = (name: string) => {
      const d = path.join(dir, name);
      fs.mkdirSync(d, { recursive: true });
      return d;
    };

    // The film and the learner, through the command-line tools, into PostgreSQL and the bucket.
    for (const [script, args] of [
      ['server/cli/films-import.ts', [path.join(ROOT, 'demo/films/rag-on-the-fridge')]],
      ['server/cli/users-add.ts', ['learner', 'learner-pass-1', '学员']],
    ] as const) {
      const cli = await startNodeScript(script, script, [...args], { ...env, DATA_DIR: dataDir('cli') });
      const exit = await cli.exited;
      if (exit.code !== 0) throw new Error(`${script} failed:\n${cli.lines.join('\n')}`);
    }

    const appPorts = [await freePort(), await freePort()];
    const apps: TestProcess[] = [];
    const workers: TestProcess[] = [];
    const everyProcess: TestProcess[] = [];
    const startApp = async (i: number) => {
      const app = await startNodeScript(`app-${i + 1}`, 'server/main.ts', [], {
        ...env,
        PORT: String(appPorts[i]),
        INSTANCE_ID: `app-${i + 1}`,
        DATA_DIR: dataDir(`app-${i + 1}`),
      });
      apps[i] = app;
      everyProcess.push(app);
      await app.waitForLine((l) => l.includes('Serving /producer and /ai on'), `app-${i + 1} listening`);
      return app;
    };
    const startWorker = async (i: number) => {
      const worker = await startNodeScript(`worker-${i + 1}`, 'server/ai-worker-main.ts', [], {
        ...env,
        INSTANCE_ID: `worker-${i + 1}`,
        DATA_DIR: dataDir(`worker-${i + 1}`),
        // Debug shows "job started", so the test can kill a worker in the middle of a job.
        LOG_LEVEL: 'debug',
      });
      workers[i] = worker;
      everyProcess.push(worker);
      await worker.waitForLine((l) => l.includes('scoring worker ready'), `worker-${i + 1} ready`);
      return worker;
    };
    cleanups.push(async () => {
      await Promise.all(everyProcess.map((p) => p.stop()));
    });
    // The first app migrates the schema; the others then start together.
    await startApp(0);
    await Promise.all([startApp(1), startWorker(0), startWorker(1)]);

    const port = await freePort();
    const nginx = await startNginx(path.join(dir, 'nginx'), port, appPorts);
    cleanups.push(() => nginx.stop());
    const url = `http://127.0.0.1:${port}`;
    await untilAnswers(`${url}/ready`);
    return {
      url,
      apps,
      appUrls: appPorts.map((p) => `http://127.0.0.1:${p}`),
      workers,
      everyProcess,
      nginx,
      s3,
      env,
      startApp,
      startWorker,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Waits until `url` answers 200 (nginx prints nothing when it is ready), for at most 20 s. */
async function untilAnswers(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer in 20 s (${last})`);
}
