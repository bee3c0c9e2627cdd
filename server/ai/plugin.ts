import type { FastifyInstance } from 'fastify';
import { ok } from '../lib/reply';
import { QueuedScoring } from './queue';
import { LocalScoring, type TakeScoring } from './scoring';
import { speechEmotionRoute } from './speech-emotion-route';
import { warmupRoutes } from './warmup-route';
import { closeWordChecks } from '../words';

/**
 * The AI service, mounted by server/app.ts at /ai (alone in `npm run start:ai`, or beside the
 * producer). Scores on the app's worker pool (`app.scoring`, server/plugins/scoring.ts), or through
 * the queue when REDIS_URL is set.
 */
export async function aiPlugin(app: FastifyInstance): Promise<void> {
  let scoring: TakeScoring;
  if (app.config.redisUrl) {
    const queued = new QueuedScoring(app.config, app.storage, app.log);
    await queued.ready();
    await queued.checkWorkers();
    scoring = queued;
  } else {
    scoring = new LocalScoring(
      { db: app.db, storage: app.storage, pool: app.scoring, log: app.log, config: app.config },
      app.config.aiWorkers,
    );
  }
  app.addHook('onClose', async () => {
    await scoring.close();
    await closeWordChecks();
  });

  speechEmotionRoute(app, scoring);
  warmupRoutes(app);
  app.healthProbes.set('scoring', () => scoring.probe());
  app.get('/health', async () => ok(await scoring.probe()));
}

export default aiPlugin;
