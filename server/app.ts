import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { AI_BASE, Code, PRODUCER_BASE } from '../src/api/contract';
import type { Config, TrustProxy } from './config';
import type { DbHandle } from './db/connect';
import { catalogueError } from './lib/app-error';
import { fail } from './lib/reply';
import { sayTo } from './lib/words';
import { authPlugin } from './plugins/auth';
import { configPlugin } from './plugins/config';
import { dbPlugin } from './plugins/db';
import { compressionPlugin } from './plugins/compression';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors';
import { healthPlugin } from './plugins/health';
import { notFoundPlugin } from './plugins/not-found';
import { schemasPlugin } from './plugins/schemas';
import { rendersPlugin } from './plugins/renders';
import { securityHeadersPlugin } from './plugins/security-headers';
import { scoringPlugin } from './plugins/scoring';
import { redisPlugin } from './plugins/redis';
import {
  acceptRequestId,
  clientAddress,
  RequestLogController,
  requestLogPlugin,
} from './plugins/request-log';
import { spaPlugin } from './plugins/spa';
import { storagePlugin } from './plugins/storage';
import { openRedis } from './redis/connect';
import { producerRoutes } from './routes/producer';
import type { MediaStorage } from './storage/media-storage';

export interface BuildOptions {
  /** Open database handle to use instead of opening one from config (tests, CLIs). */
  db?: DbHandle;
  storage?: MediaStorage;
  /** Serve the built SPA from this folder with history fallback (main passes dist/). */
  spaRoot?: string;
  /** Which services to mount (default both). The standalone AI service mounts only 'ai'. */
  services?: Array<'producer' | 'ai'>;
  /** Log lines go here instead of standard output (tests read them). */
  logStream?: DestinationStream;
}

/** Core plugins shared by both services: external plugins first, then app services (docs/architecture.md, Start-up). */
export async function registerCore(app: FastifyInstance, config: Config, opts: BuildOptions): Promise<void> {
  // External plugins. Cookies are parsed only where they are read: the phone pages
  // (server/routes/producer/h5-qr.ts registers @fastify/cookie for its routes).
  await app.register(formbody, { bodyLimit: 4 * 1024 });
  await app.register(multipart, {
    // Route handlers set their own, smaller limits; these are the outer bounds.
    limits: { fileSize: 16 * 1024 * 1024, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25 },
  });
  // With Redis the counts are shared by every instance; if Redis does not answer, requests pass
  // unlimited rather than fail (the login failure locks in the database still hold).
  const redis = config.redisUrl ? openRedis(config.redisUrl) : null;
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: clientAddress,
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}:rl:`, skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) =>
      catalogueError(Code.RATE_LIMITED, 'request.tooMany', {
        values: { seconds: String(Math.ceil(ctx.ttl / 1000)) },
        status: 429,
      }),
  });
  // Before every route: it hooks each route as it is added (server/plugins/compression.ts).
  await app.register(compressionPlugin);
  await app.register(underPressure, {
    // Shed load instead of falling over: above these limits new requests get a 503 envelope.
    // Event-loop delay is the honest overload signal; utilisation near 1 is normal during short
    // synchronous bursts (SQLite, JSON), so it is not used.
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    retryAfter: 5,
    pressureHandler: (request, reply) => {
      reply
        .code(503)
        .header('retry-after', '5')
        .send(fail(Code.BUSY, sayTo(request, 'error.busy')));
    },
  });

  // App services (decorators).
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, { config });
  await app.register(schemasPlugin);
  await app.register(configPlugin, { config });
  await app.register(healthPlugin);
  await app.register(requestLogPlugin);
  await app.register(redisPlugin, { redis });
  await app.register(dbPlugin, { handle: opts.db });
  await app.register(storagePlugin, { storage: opts.storage });
  await app.register(scoringPlugin);
  await app.register(rendersPlugin);
  await app.register(authPlugin);
  await app.register(notFoundPlugin, { spaRoot: opts.spaRoot });
}

/**
 * The AI plugin is loaded lazily: when it cannot load (say its model file is being retrained), the
 * producer still serves and /ai answers a clear 503 — unless the AI service is all this process runs.
 */
async function loadAiPlugin(app: FastifyInstance, required: boolean): Promise<FastifyPluginAsync> {
  try {
    return (await import('./ai/plugin')).default;
  } catch (err) {
    if (required) throw err;
    app.log.error({ err }, 'The AI service could not be loaded: /ai answers 503');
    return async (ai) => {
      ai.all('/*', async (request, reply) =>
        reply.code(503).send(fail(Code.BUSY, sayTo(request, 'ai.unavailable'))),
      );
    };
  }
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "trust the nearest n addresses of the chain"
 * (Fastify's own numeric option trusts nothing); addresses and CIDRs go to proxy-addr as they are.
 */
function trustProxyOption(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the app: core plugins, then the producer routes at /producer and the AI plugin at /ai. */
export async function build(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Every line names its instance, so the logs of several instances can be merged. A line is
    // written to stdout as it is made: pino's default stream hands each line to libuv's thread pool
    // (shared with file reads and password hashing), a wake-up and a context switch per request.
    logger: {
      level: config.logLevel,
      base: { instance: config.instanceId },
      stream: opts.logStream ?? pino.destination({ dest: 1, sync: true }),
    },
    // One line per request, written when the answer is sent.
    logController: new RequestLogController(),
    // Requests are small: a route that takes more says so (films.ts' saved answers); uploads are
    // multipart, bounded by the multipart limits below and their routes.
    bodyLimit: 16 * 1024,
    // X-Forwarded-* name the client and the public host only when they come from a proxy TRUST_PROXY
    // names (off by default: a client must not choose the address its per-IP limits count against).
    trustProxy: trustProxyOption(config.trustProxy),
    // The balancer's X-Request-Id (nginx: $request_id) when it is well formed, else a new id.
    requestIdHeader: false,
    genReqId: acceptRequestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 600 },
    connectionTimeout: 120_000,
    requestTimeout: 90_000,
    // Errors raised before the error handler can run still answer the envelope.
    frameworkErrors,
    clientErrorHandler,
  });
  await registerCore(app, config, opts);

  // Routes.
  const services = opts.services ?? ['producer', 'ai'];
  if (services.includes('producer')) await app.register(producerRoutes, { prefix: PRODUCER_BASE });
  if (services.includes('ai')) {
    const aiPlugin = await loadAiPlugin(app, !services.includes('producer'));
    await app.register(aiPlugin, { prefix: AI_BASE });
  }
  if (opts.spaRoot) await app.register(spaPlugin, { root: opts.spaRoot });
  return app;
}
