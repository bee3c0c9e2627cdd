import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { QrEvents } from '../auth/qr/qr-events';
import { closeRedis, openRedis } from '../redis/connect';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis command connection when REDIS_URL is set, else null. */
    redis: Redis | null;
    /** QR login state changes, pushed to the long polls of every instance (see QrEvents). */
    qrEvents: QrEvents;
  }
}

/**
 * `app.redis` and `app.qrEvents`. The command connection is opened by registerCore (the rate
 * limiter needs it first) and closed here with the app; pub/sub needs a connection of its own.
 */
export const redisPlugin = fp(
  async (app: FastifyInstance, opts: { redis: Redis | null }) => {
    const { redis } = opts;
    app.decorate('redis', redis);
    const subscriber = redis && app.config.redisUrl ? openRedis(app.config.redisUrl, 'subscriber') : null;
    const qrEvents =
      redis && subscriber
        ? new QrEvents({ publisher: redis, subscriber, channel: `${app.config.redisPrefix}:qr` })
        : new QrEvents();
    app.decorate('qrEvents', qrEvents);
    if (redis) {
      app.healthProbes.set('redis', async () => {
        await redis.ping();
        return { prefix: app.config.redisPrefix };
      });
    }
    app.addHook('onReady', async () => {
      await qrEvents.start();
    });
    app.addHook('onClose', async () => {
      if (subscriber) await closeRedis(subscriber);
      if (redis) await closeRedis(redis);
    });
  },
  { name: 'app-redis', dependencies: ['app-config', 'app-health'] },
);
