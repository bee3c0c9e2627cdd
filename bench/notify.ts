/**
 * `npx tsx bench/notify.ts`: how fast a QR state change reaches the instance holding the long poll,
 * Redis pub/sub (what the app uses with REDIS_URL) against PostgreSQL LISTEN/NOTIFY, with the
 * floor: an in-process EventEmitter. One message at a time, publish → delivery, p50 / p99 / max.
 * Needs Redis at TEST_REDIS_URL and PostgreSQL at TEST_DATABASE_URL (the test defaults).
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import pg from 'pg';

const N = Number(process.env.NOTIFY_MESSAGES ?? 2000);
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

type Transport = {
  name: string;
  publish: (payload: string) => Promise<void>;
  onMessage: (handler: (payload: string) => void) => void;
  close: () => Promise<void>;
};

async function measure(t: Transport): Promise<number[]> {
  const waiting = new Map<string, (ms: number) => void>();
  t.onMessage((payload) => waiting.get(payload)?.(performance.now()));
  const ms: number[] = [];
  for (let i = 0; i < N + 100; i++) {
    const payload = `qr-${i}`;
    const start = performance.now();
    const arrived = new Promise<number>((resolve) => waiting.set(payload, resolve));
    await t.publish(payload);
    const end = await arrived;
    waiting.delete(payload);
    if (i >= 100) ms.push(end - start); // the first 100 warm the connections up
  }
  await t.close();
  return ms.sort((a, b) => a - b);
}

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function main() {
  const emitter = new EventEmitter();
  const floor: Transport = {
    name: 'in-process EventEmitter (floor)',
    publish: async (p) => {
      emitter.emit('m', p);
    },
    onMessage: (h) => emitter.on('m', h),
    close: async () => {},
  };

  const pub = new Redis(redisUrl);
  const sub = new Redis(redisUrl);
  await sub.subscribe('bench-notify');
  const redis: Transport = {
    name: 'Redis pub/sub',
    publish: async (p) => {
      await pub.publish('bench-notify', p);
    },
    onMessage: (h) => sub.on('message', (_c, p: string) => h(p)),
    close: async () => {
      pub.disconnect();
      sub.disconnect();
    },
  };

  const notifier = new pg.Client({ connectionString: pgUrl });
  const listener = new pg.Client({ connectionString: pgUrl });
  await Promise.all([notifier.connect(), listener.connect()]);
  await listener.query('LISTEN bench_notify');
  const postgres: Transport = {
    name: 'PostgreSQL LISTEN/NOTIFY',
    publish: async (p) => {
      await notifier.query('SELECT pg_notify($1, $2)', ['bench_notify', p]);
    },
    onMessage: (h) => listener.on('notification', (n) => h(n.payload ?? '')),
    close: async () => {
      await Promise.all([notifier.end(), listener.end()]);
    },
  };

  console.log(`publish → delivery of one QR state change, ${N} messages each, one at a time (ms)`);
  const floorMs = await measure(floor);
  const floorP50 = q(floorMs, 0.5);
  for (const [t, ms] of [
    [floor, floorMs],
    [redis, await measure(redis)],
    [postgres, await measure(postgres)],
  ] as const) {
    console.log(
      `  ${t.name.padEnd(32)} p50 ${q(ms, 0.5).toFixed(3)}  p99 ${q(ms, 0.99).toFixed(3)}  max ${ms[ms.length - 1].toFixed(2)}  (p50 ${(q(ms, 0.5) / floorP50).toFixed(0)}× the floor)`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
