import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDb } from '../../server/db/connect';
import { type Config, loadConfig } from '../../server/config';
import { startNodeScript, type TestProcess } from '../support/processes';
import { createTestSchema, dropTestSchema, testDatabaseUrl } from '../support/server';
import { fixtureWav } from './ai-support';
import { describeEngines } from './support/engines';
import { makeFilmFolder } from './support/film-fixture';
import { type AnyEnvelope, client } from './support/http';

/** The multipart body the web client sends for a take, as bytes, with its content type. */
async function takeBody(subtitlesId: string, filmId: string, takeId: string) {
  const form = new FormData();
  form.set('subtitlesId', subtitlesId);
  form.set('filmId', filmId);
  form.set('attempt', '1');
  form.set('takeId', takeId);
  form.set('file', new Blob([fixtureWav('15a01Wa.wav')], { type: 'audio/wav' }), `${subtitlesId}.wav`);
  const request = new Request('http://body.invalid/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') ?? '' };
}

/** What a new connection gets: refused, or reset or 503 while the listener is being closed. */
const newConnection = (port: number) =>
  new Promise<string>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      resolve(`answered ${res.statusCode}`);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

describeEngines('graceful shutdown of npm start', (engine) => {
  let dataDir: string;
  let schema: string | undefined;
  let env: Record<string, string>;
  let service: TestProcess;
  let config: Config;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-shutdown-'));
    schema = engine === 'postgres' ? await createTestSchema() : undefined;
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: schema ? testDatabaseUrl() : '',
      DATABASE_SCHEMA: schema ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      AI_WORKERS: '1',
      LOG_LEVEL: 'info',
      SERVE_CLIENT: 'false',
      DEMO_CONTENT: 'false',
      INSTANCE_ID: `shutdown-${engine}`,
      // As every test server (tests/support/server.ts): on a loaded machine the event loop of a
      // server just started lags over the 1 s limit, and the login this test needs was shed with a
      // 503. Shedding is tested in tests/server/hardening.test.ts; this test is about the shutdown.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    };
    config = loadConfig(env);
    const film = await makeFilmFolder('shutdown-film');
    for (const [script, args] of [
      ['server/cli/films-import.ts', [film]],
      ['server/cli/users-add.ts', ['learner', 'learner-pass']],
    ] as const) {
      const cli = await startNodeScript(script, script, [...args], env);
      expect((await cli.exited).code, cli.lines.join('\n')).toBe(0);
    }
    service = await startNodeScript('app', 'server/main.ts', [], env);
  });
  afterAll(async () => {
    await service?.stop();
    if (schema) await dropTestSchema(schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM stops accepting, finishes the take being uploaded, stores it and exits 0', async () => {
    const serving = await service.waitForLine((l) => l.includes('Serving /producer and /ai on'), 'listening');
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(serving)?.[1]);
    const me = await client(`http://127.0.0.1:${port}`).login('learner', 'learner-pass');
    const body = await takeBody('shutdown-film-1', 'shutdown-film', 'take-in-flight-1');

    let duringShutdown = '';
    const answer = new Promise<{ status: number; json: AnyEnvelope }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/ai/speech_emotion',
          agent: false,
          headers: {
            token: me.token,
            'content-type': body.type,
            'content-length': body.bytes.length,
            // The server answers 100 Continue as it hands the request to its router: from then on
            // the request is in flight there.
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.once('continue', () => {
        // Half the upload now; the rest only once the service is shutting down.
        req.write(body.bytes.subarray(0, body.bytes.length >> 1));
        service.signal('SIGTERM');
      });
      service
        .waitForLine((l) => l.includes('SIGTERM received'), 'the shutdown notice')
        .then(() => newConnection(port))
        .then((what) => {
          duringShutdown = what;
          req.end(body.bytes.subarray(body.bytes.length >> 1));
        }, reject);
    });

    const { status, json } = await answer;
    expect(['ECONNREFUSED', 'ECONNRESET', 'answered 503']).toContain(duringShutdown);
    expect(status).toBe(200);
    expect(json.code).toBe(200);
    expect(json.data.takeId).toBe('take-in-flight-1');
    expect(await service.exited).toEqual({ code: 0, signalled: false });

    const { db } = connectDb(config);
    try {
      const rows = await db.selectFrom('takes').select(['audio_key', 'overall']).execute();
      expect(rows).toEqual([{ audio_key: expect.stringMatching(/^takes\//), overall: json.data.overall }]);
      expect(fs.statSync(path.join(dataDir, 'media', rows[0].audio_key)).size).toBeGreaterThan(10_000);
    } finally {
      await db.destroy();
    }
  });
});
