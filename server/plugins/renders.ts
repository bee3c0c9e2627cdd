import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RenderQueue } from '../renders/render-queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** Dubbed-video renders: ffmpeg child processes, RENDER_CONCURRENCY at once (server/renders). */
    renders: RenderQueue;
  }
}

/** `app.renders`; closing the app drops waiting renders and stops those running (server/renders/render-queue.ts). */
export const rendersPlugin = fp(
  async (app: FastifyInstance) => {
    const queue = new RenderQueue(app.config.renderConcurrency);
    app.decorate('renders', queue);
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'app-renders', dependencies: ['app-config'] },
);
