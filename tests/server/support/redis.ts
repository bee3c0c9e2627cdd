import crypto from 'node:crypto';
import { Redis } from 'ioredis';

export const testRedisUrl = (): string => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';

async function answers(): Promise<boolean> {
  const redis = new Redis(testRedisUrl(), {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Whether Redis answers at TEST_REDIS_URL (default redis://127.0.0.1:6379/0); settled at import. */
export const REDIS_UP = await answers();
const IN_CI = process.env.CI === 'true';
if (!REDIS_UP && !IN_CI) {
  console.warn(`\n[redis] Redis is not answering at ${testRedisUrl()}: the Redis tests are SKIPPED.\n`);
}
/** Skip Redis tests without a server, except under CI=true where they run and fail. */
export const SKIP_REDIS = !REDIS_UP && !IN_CI;

/** A key prefix of a test's own, so tests can share one Redis server. */
export const newRedisPrefix = (): string => `t-${crypto.randomBytes(5).toString('hex')}`;

/** Deletes every key under a test's prefix. */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
