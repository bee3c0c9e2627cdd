import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ScoringPool } from '../ai/pool';

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker pool for CPU-heavy audio work: scoring takes (/ai) and reading actors' lines (reports). */
    scoring: ScoringPool;
  }
}

/** `app.scoring`: AI_WORKERS worker threads, closed with the app. */
export const scoringPlugin = fp(
  async (app: FastifyInstance) => {
    const pool = new ScoringPool(app.config.aiWorkers);
    app.decorate('scoring', pool);
    app.addHook('onClose', async () => {
      await pool.close();
    });
  },
  { name: 'app-scoring', dependencies: ['app-config'] },
);
