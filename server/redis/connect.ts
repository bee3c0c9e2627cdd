import { Redis } from 'ioredis';

/**
 * A Redis connection. `blocking` is for BullMQ's workers and event readers, whose commands wait on
 * the server and must never be cut short by a retry limit; the others fail fast so a Redis outage
 * turns into a clear error (or, for the rate limiter, a skipped check) instead of hung requests.
 */
export function openRedis(url: string, kind: 'commands' | 'blocking' | 'subscriber' = 'commands'): Redis {
  return new Redis(url, {
    connectionName: `fst-${kind}`,
    maxRetriesPerRequest: kind === 'commands' ? 1 : null,
    connectTimeout: 2_000,
    // Reconnect with a capped backoff for as long as the process lives.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

/** Closes a connection, politely when it is up. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}
