import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { build } from '../../server/app';
import { seedDemoAccount } from '../../server/auth/users';
import { type Config, loadConfig } from '../../server/config';
import { importDemoFilmsIfEmpty } from '../../server/films/demo';

export type TestEngine = 'sqlite' | 'postgres';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const testDatabaseUrl = (): string => process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;

export interface TestServerOptions {
  engine?: TestEngine;
  /** Create the demo account (demo / demo123456). */
  seedDemo?: boolean;
  /** Import every folder under demo/films (slow: ffmpeg cuts each line). */
  importDemo?: boolean;
  /** Extra environment for loadConfig (e.g. RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
  /** Also serve a built client from this folder (e.g. dist/) with history fallback, like npm start. */
  spaRoot?: string;
  /** Receives the server's log lines (set env LOG_LEVEL too: the default is silent). */
  logStream?: DestinationStream;
}

export interface TestServer {
  /** Base URL, e.g. http://127.0.0.1:43127 (no trailing slash). */
  url: string;
  app: FastifyInstance;
  config: Config;
  close: () => Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

async function onTestDatabase(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

let pgAvailable: Promise<boolean> | null = null;

/**
 * True when PostgreSQL answers at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * asked once per process: the engine tests and the benches decide from it whether to run its half.
 */
export function postgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl(), connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgAvailable;
}

/** A fresh PostgreSQL schema on the test database (DATABASE_SCHEMA of a server under test). */
export async function createTestSchema(): Promise<string> {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  await onTestDatabase(`CREATE SCHEMA ${schema}`);
  return schema;
}

export const dropTestSchema = (schema: string) => onTestDatabase(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);

/**
 * A real server on 127.0.0.1 with an ephemeral port, a temporary DATA_DIR and, for PostgreSQL, a
 * fresh schema that is dropped on close. Everything a test creates disappears with it.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const engine = options.engine ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-test-'));
  const schema = engine === 'postgres' ? await createTestSchema() : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AI_WORKERS: '1',
    // No load shedding by event-loop delay: the server shares its event loop with the test, whose own
    // synchronous work (audio matching, big fixtures) stalls it for seconds. After any stall longer than
    // under-pressure's 1 s sample, its delay histogram is empty, reads as NaN, counts as Infinity and the
    // next requests get 503 whatever the limit (a video range request failed that way: the clip died
    // mid-seek and a take never started). Shedding itself is tested with its own limit (hardening.test.ts).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(schema ? { DATABASE_URL: testDatabaseUrl(), DATABASE_SCHEMA: schema } : {}),
    ...options.env,
  });
  const app = await build(config, { spaRoot: options.spaRoot, logStream: options.logStream });
  const dropSchema = async () => {
    if (schema) await dropTestSchema(schema);
  };
  try {
    await app.ready();
    if (options.seedDemo) await seedDemoAccount(app.db);
    if (options.importDemo) await importDemoFilmsIfEmpty(app, path.join(ROOT, 'demo', 'films'));
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await app.close().catch(() => undefined);
    await dropSchema().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    config,
    close: async () => {
      if (closed) return;
      closed = true;
      const closing = app.close();
      // The tests are done with this server: a connection one left open (a keep-alive socket, an
      // unread stream) must not hold the close. Graceful shutdown has its own test (shutdown.test.ts).
      app.server.closeAllConnections();
      // A close that still hangs names what holds the process (a hook, a child process, a socket).
      const watchdog = setTimeout(() => {
        const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
        console.error(
          '[test server] still closing after 20 s; open handles:',
          handles.map((h) => h.constructor.name).join(', '),
        );
      }, 20_000);
      await closing.finally(() => clearTimeout(watchdog));
      await dropSchema();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AiService {
  /** Base URL of the standalone AI service (stays the same across stop and start). */
  url: string;
  /** Stops the service: its port refuses connections, as when the AI host is down. */
  stop: () => Promise<void>;
  /** Starts it again on the same port. */
  start: () => Promise<void>;
}

/**
 * The AI service on its own port, as `npm run start:ai` runs it (docs/api.md, "AI service": its own host),
 * sharing the test server's database and storage. Tests stop and start it to prove that takes made
 * while it is down are kept and sent when it is back.
 */
export async function startAiService(server: TestServer): Promise<AiService> {
  let app: FastifyInstance | null = null;
  let port = 0;
  const start = async () => {
    if (app) return;
    const next = await build(server.config, { services: ['ai'] });
    try {
      await next.listen({ port, host: '127.0.0.1' });
    } catch (err) {
      await next.close().catch(() => undefined);
      throw err;
    }
    const address = next.server.address();
    port = typeof address === 'object' && address ? address.port : port;
    app = next;
  };
  const stop = async () => {
    const running = app;
    app = null;
    await running?.close();
  };
  await start();
  return { url: `http://127.0.0.1:${port}`, stop, start };
}
