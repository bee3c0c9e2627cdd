import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Environment variables of both services. Validated once at start (STYLE habit 7). */
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
  /** Requests per minute per IP across all routes (login has its own stricter failure limits). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Sign-in attempts (login_pwd) per minute per IP, on top of the failure locks. */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Load shedding: above this event-loop delay new requests get 503; 0 turns it off (in-process test servers). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 10, 'must be 0 (off) or at least 10 ms')
    .default(1000),
  /** Which QR login provider answers qr_url. Only the built-in phone confirm page exists today. */
  QR_PROVIDER: z.enum(['local']).default('local'),
});

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
  rateLimitPerMinute: number;
  loginRateLimitPerMinute: number;
  maxEventLoopDelayMs: number;
  qrProvider: 'local';
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
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    qrProvider: e.QR_PROVIDER,
  };
}
