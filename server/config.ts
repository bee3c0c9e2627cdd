import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Environment variables of both services. Validated once at start; every problem is reported at once. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  AI_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  /** PostgreSQL schema to use (search_path); lets several deployments or tests share one database. */
  DATABASE_SCHEMA: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url('must be an absolute URL such as https://example.com').optional()),
  AI_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, os.cpus().length - 1)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which proxies in front may name the client (X-Forwarded-For/-Host/-Proto): off by default, so a
   * client cannot pick the address its per-IP limits count against. A hop count (`1` behind one
   * nginx) or a comma-separated list of addresses and CIDRs (`10.0.0.0/8,127.0.0.1`, `loopback`).
   */
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .refine(
        (v) => parseTrustProxy(v) !== null,
        'must be off, a hop count (1, 2 …) or a comma-separated list of addresses and CIDRs (e.g. 10.0.0.0/8,127.0.0.1, loopback)',
      )
      .optional(),
  ),
  /** Requests per minute per IP across all routes (login has its own stricter failure limits). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Failed sign-ins (password, QR confirm) per minute per IP, on top of the failure locks; successes do not count. */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Media streams (GET /media/*, shared dubbed videos) sent at once to one client address, per instance. */
  MEDIA_STREAMS_PER_IP: z.coerce.number().int().min(1).default(48),
  /** Media streams sent at once under one session or share-link token, per instance. */
  MEDIA_STREAMS_PER_TOKEN: z.coerce.number().int().min(1).default(8),
  /**
   * A media stream whose client has taken no bytes for this long is ended (its socket closed): a
   * player that paused asks again with Range when it resumes.
   */
  MEDIA_IDLE_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /**
   * A media stream waiting this long for its client to take the bytes already sent no longer counts
   * as reading: when its address or token is at its bound, a new stream takes its slot and it ends.
   */
  MEDIA_STALLED_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  /** Load shedding: above this event-loop delay new requests get 503; 0 turns it off (in-process test servers). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 10, 'must be 0 (off) or at least 10 ms')
    .default(1000),
  /** Which QR login provider answers qr_url. Only the built-in phone confirm page exists today. */
  QR_PROVIDER: z.enum(['local']).default('local'),
  /**
   * Takes with speech a line may hold per run: the spec's first and second attempt (2). A take without
   * speech uses none up. Higher only where a deployment wants free practice (the app then words it).
   */
  TAKES_ATTEMPTS_PER_LINE: z.coerce.number().int().min(2).max(100).default(2),
  /** Retakes kept per line and run besides its first and latest take (older ones are deleted). */
  TAKES_RETAKES_KEPT: z.coerce.number().int().min(0).max(100).default(3),
  /**
   * Leftovers of a crash (take audio without a row, half-written temporary files) are removed once
   * they are this old: at start, once more when this much time has passed, then hourly.
   */
  LEFTOVERS_GRACE_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** Take audio a learner may upload in 24 hours, in MB; 0 = no limit. */
  TAKES_UPLOAD_MB_PER_DAY: z.coerce.number().min(0).default(100),
  /** First start on an empty database: seed the demo account and import demo/films (`false` in production). */
  DEMO_CONTENT: z.enum(['true', 'false'], 'must be true or false').default('true'),
  /** Serve the built client (dist/, built on first start); `false` when a proxy or CDN serves it. */
  SERVE_CLIENT: z.enum(['true', 'false'], 'must be true or false').default('true'),
  /** Names this process in logs and /health (several instances behind one balancer). */
  INSTANCE_ID: optionalText.pipe(z.string().max(64).optional()),
  /** Where media live: `file:///path` (default DATA_DIR/media) or `s3://bucket[/prefix]`. */
  STORAGE_URL: optionalText.pipe(
    z
      .string()
      .regex(
        /^(file:\/\/\/|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/|$))/,
        'must be file:///<folder> or s3://<bucket>[/<prefix>]',
      )
      .optional(),
  ),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be an S3 bucket name (3–63 lower-case letters, digits, dots, dashes)',
      )
      .optional(),
  ),
  /** Key prefix inside the bucket, so several deployments can share one. */
  S3_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, 'must be a path such as media/ or site-a')
      .optional(),
  ),
  /** The store's API address (MinIO, another cloud); omit for AWS S3. */
  S3_ENDPOINT: optionalText.pipe(z.url('must be an absolute URL such as http://127.0.0.1:9000').optional()),
  /** The address browsers reach the store at, for presigned URLs (default S3_ENDPOINT). */
  S3_PUBLIC_ENDPOINT: optionalText.pipe(
    z.url('must be an absolute URL such as https://media.example.com').optional(),
  ),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Path-style URLs (host/bucket/key); default on with S3_ENDPOINT (MinIO), off for AWS. */
  S3_FORCE_PATH_STYLE: optionalText.pipe(z.enum(['true', 'false'], 'must be true or false').optional()),
  /** How media reach the browser: through the app (`app`) or by a redirect to a presigned URL. */
  MEDIA_DELIVERY: z.enum(['app', 'presigned'], 'must be app or presigned').default('app'),
  /**
   * Redis for several instances: shared rate limits, QR status pushed to the instance holding the
   * long poll, and scoring through a job queue served by `npm run start:ai-worker`.
   */
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  /** Prefix of every Redis key and channel, so deployments (and tests) can share one server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,32}$/, 'must be 1–32 letters, digits, dots, dashes or underscores')
    .default('fst'),
  /** How long an upload waits for its score from the queue before answering "busy, retry". */
  /** Dubbed-video renders (ffmpeg child processes) running at once per instance; 0 = it renders none. */
  RENDER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
  /** Renders one learner may have waiting (server/renders/render-queue.ts); more answer 429. */
  RENDER_WAITING_PER_LEARNER: z.coerce.number().int().min(1).max(100).default(3),
  /** Renders waiting in the whole service (all instances); more answer 429. */
  RENDER_WAITING_TOTAL: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Each learner's most recent rendered videos kept; older ones are deleted (rendered again if asked for). */
  RENDERS_KEPT_PER_LEARNER: z.coerce.number().int().min(1).max(1000).default(5),
  SCORE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(55_000).default(30_000),
  /** A worker holds a job this long without renewing its lock before another worker may take it. */
  SCORE_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** Lifetime of a presigned media URL. */
  MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(300),
  /** Lifetime of the signed take-audio links in answers (the owner's token needs none). */
  TAKE_LINK_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(1800),
  /**
   * Origins the pages may also reach besides their own and the media store's (the AI service on
   * another host, a CDN), comma- or space-separated; added to the Content-Security-Policy.
   */
  CSP_EXTRA_ORIGINS: optionalText.pipe(
    z
      .string()
      .regex(
        /^(https?:\/\/[A-Za-z0-9.*-]+(:\d+)?)([ ,]+https?:\/\/[A-Za-z0-9.*-]+(:\d+)?)*$/,
        'must be origins such as https://ai.example.com, separated by commas or spaces',
      )
      .optional(),
  ),
});

export interface S3Settings {
  bucket: string;
  /** Key prefix, '' or ending in '/'. */
  prefix: string;
  endpoint: string | undefined;
  publicEndpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

export type StorageConfig = { kind: 'fs'; root: string } | ({ kind: 's3' } & S3Settings);

export interface Config {
  port: number;
  aiPort: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  publicUrl: string | undefined;
  aiWorkers: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Fastify's trustProxy: false, a hop count, or the trusted addresses and CIDRs. */
  trustProxy: TrustProxy;
  rateLimitPerMinute: number;
  loginRateLimitPerMinute: number;
  mediaStreamsPerIp: number;
  mediaStreamsPerToken: number;
  mediaIdleMs: number;
  mediaStalledMs: number;
  maxEventLoopDelayMs: number;
  qrProvider: 'local';
  takesRetakesKept: number;
  leftoversGraceMs: number;
  takesAttemptsPerLine: number;
  takesUploadBytesPerDay: number;
  demoContent: boolean;
  serveClient: boolean;
  instanceId: string;
  storage: StorageConfig;
  mediaDelivery: 'app' | 'presigned';
  mediaUrlTtlSeconds: number;
  takeLinkTtlSeconds: number;
  redisUrl: string | undefined;
  redisPrefix: string;
  scoreTimeoutMs: number;
  renderConcurrency: number;
  renderWaitingPerLearner: number;
  renderWaitingTotal: number;
  rendersKeptPerLearner: number;
  scoreJobLockMs: number;
  cspExtraOrigins: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment into a typed config, or throws a ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const e = parsed.data;
  const storage = storageConfig(e);
  if (typeof storage === 'string') throw new ConfigError([storage]);
  if (e.MEDIA_DELIVERY === 'presigned' && storage.kind !== 's3') {
    throw new ConfigError(['MEDIA_DELIVERY: presigned needs an S3 store (STORAGE_URL=s3://… or S3_BUCKET)']);
  }
  return {
    port: e.PORT,
    aiPort: e.AI_PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    aiWorkers: e.AI_WORKERS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === undefined ? false : (parseTrustProxy(e.TRUST_PROXY) ?? false),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    mediaStreamsPerIp: e.MEDIA_STREAMS_PER_IP,
    mediaStreamsPerToken: e.MEDIA_STREAMS_PER_TOKEN,
    mediaIdleMs: e.MEDIA_IDLE_MS,
    mediaStalledMs: e.MEDIA_STALLED_MS,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    qrProvider: e.QR_PROVIDER,
    takesRetakesKept: e.TAKES_RETAKES_KEPT,
    leftoversGraceMs: e.LEFTOVERS_GRACE_MS,
    takesAttemptsPerLine: e.TAKES_ATTEMPTS_PER_LINE,
    takesUploadBytesPerDay: Math.round(e.TAKES_UPLOAD_MB_PER_DAY * 1024 * 1024),
    demoContent: e.DEMO_CONTENT === 'true',
    serveClient: e.SERVE_CLIENT === 'true',
    instanceId: e.INSTANCE_ID ?? `${os.hostname()}:${process.pid}`,
    storage,
    mediaDelivery: e.MEDIA_DELIVERY,
    mediaUrlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
    takeLinkTtlSeconds: e.TAKE_LINK_TTL_SECONDS,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    scoreTimeoutMs: e.SCORE_TIMEOUT_MS,
    renderConcurrency: e.RENDER_CONCURRENCY,
    renderWaitingPerLearner: e.RENDER_WAITING_PER_LEARNER,
    renderWaitingTotal: e.RENDER_WAITING_TOTAL,
    rendersKeptPerLearner: e.RENDERS_KEPT_PER_LEARNER,
    scoreJobLockMs: e.SCORE_JOB_LOCK_MS,
    cspExtraOrigins: e.CSP_EXTRA_ORIGINS?.split(/[ ,]+/).filter(Boolean) ?? [],
  };
}

export type TrustProxy = false | number | string[];

/** The ranges proxy-addr (Fastify's trustProxy) knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's value as Fastify's trustProxy, or null when it is not valid. */
export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim().toLowerCase();
  if (v === 'off' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v) <= 32 ? Number(v) : null;
  const entries = v.split(',').map((x) => x.trim());
  return entries.every(isAddressOrCidr) ? entries : null;
}

/** STORAGE_URL, or S3_BUCKET alone, picks the store; a problem comes back as its message. */
function storageConfig(e: z.infer<typeof envSchema>): StorageConfig | string {
  let bucket = e.S3_BUCKET;
  let prefix = e.S3_PREFIX ?? '';
  if (e.STORAGE_URL?.startsWith('file:')) {
    if (bucket) return 'STORAGE_URL is a folder but S3_BUCKET is set: choose one store';
    return { kind: 'fs', root: path.resolve(decodeURIComponent(e.STORAGE_URL.slice('file://'.length))) };
  }
  if (e.STORAGE_URL) {
    const [urlBucket, ...rest] = e.STORAGE_URL.slice('s3://'.length).split('/');
    if (bucket && bucket !== urlBucket)
      return `STORAGE_URL names bucket ${urlBucket} but S3_BUCKET says ${bucket}`;
    if (rest.join('/') && e.S3_PREFIX) return 'STORAGE_URL has a prefix and S3_PREFIX is set: choose one';
    bucket = urlBucket;
    prefix ||= rest.join('/');
  }
  if (!bucket) return { kind: 'fs', root: path.resolve(e.DATA_DIR, 'media') };
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    return 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both out for the SDK default chain)';
  }
  return {
    kind: 's3',
    bucket,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    endpoint: e.S3_ENDPOINT,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
  };
}
