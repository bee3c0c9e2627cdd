import type { FastifyInstance } from 'fastify';
import { ok } from '../lib/reply';
import { ScoringPool } from './pool';
import { speechEmotionRoute } from './speech-emotion-route';

/**
 * The AI service, mounted by server/app.ts at /ai (alone in `npm run start:ai`, or beside the
 * producer). Owns the scoring worker pool for its lifetime.
 */
export async function aiPlugin(app: FastifyInstance): Promise<void> {
  const pool = new ScoringPool(app.config.aiWorkers);
  app.addHook('onClose', async () => {
    await pool.close();
  });

  speechEmotionRoute(app, pool);

  app.get('/health', async () =>
    ok({ workers: app.config.aiWorkers, queued: pool.queueSize, maxQueue: pool.maxQueue }),
  );
}

export default aiPlugin;
