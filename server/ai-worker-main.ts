import pino from 'pino';
import { ScoringPool } from './ai/pool';
import { startScoringWorker } from './ai/queue';
import { connectDb, migrateToLatest } from './db/connect';
import { loadConfigOrExit } from './lib/process-lifecycle';
import { openStorage } from './storage/open-storage';
import { closeWordChecks, wordCheckStatusLines } from './words';

/**
 * `npm run start:ai-worker`: a scoring worker for the queue (REDIS_URL). Run one per host, or
 * several; each scores AI_WORKERS takes at a time. It reads the takes' wavs from the media store and
 * writes the scores to the database, the same ones the app instances use. SIGTERM or SIGINT stops
 * taking jobs, finishes the running ones and exits.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel, base: { instance: config.instanceId, role: 'ai-worker' } });
  if (!config.redisUrl) {
    console.error(
      'The scoring worker takes its jobs from Redis: set REDIS_URL (e.g. redis://127.0.0.1:6379).',
    );
    process.exit(1);
  }
  const { db } = connectDb(config);
  await migrateToLatest(db, config.databaseSchema);
  const storage = openStorage(config.storage);
  const pool = new ScoringPool(config.aiWorkers);
  const running = startScoringWorker(config, { db, storage, pool, log, config }, log);
  await running.worker.waitUntilReady();
  log.info({ workers: config.aiWorkers, media: storage.kind }, 'scoring worker ready');
  for (const line of wordCheckStatusLines()) log.info(line);

  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    log.info(`${signal} received: finishing the running jobs`);
    running
      .close()
      .then(() => pool.close())
      .then(() => closeWordChecks())
      .then(() => db.destroy())
      .then(
        () => {
          storage.close?.();
          log.info('scoring worker stopped');
          process.exit(0);
        },
        (err) => {
          log.error({ err }, 'error while stopping');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
