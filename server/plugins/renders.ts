import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { renderRun } from '../renders/dub-video';
import { RenderQueue } from '../renders/render-queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** Dubbed-video renders: the queue shared through the database, RENDER_CONCURRENCY here at once (server/renders). */
    renders: RenderQueue;
  }
}

/** `app.renders`; closing the app stops the renders running here and queues them again (server/renders/render-queue.ts). */
export const rendersPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const deps = {
      db: app.db,
      storage: app.storage,
      rendersKept: config.rendersKeptPerLearner,
      log: app.log,
    };
    const queue = new RenderQueue({
      db: app.db,
      concurrency: config.renderConcurrency,
      waitingPerLearner: config.renderWaitingPerLearner,
      waitingTotal: config.renderWaitingTotal,
      quotaBytesPerDay: config.takesUploadBytesPerDay,
      render: (runId, signal) => renderRun(deps, runId, signal),
      log: app.log,
    });
    app.decorate('renders', queue);
    app.addHook('onReady', async () => {
      // Renders left queued by a previous start or by other instances.
      queue.kick();
    });
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'app-renders', dependencies: ['app-config', 'app-db', 'app-storage'] },
);
