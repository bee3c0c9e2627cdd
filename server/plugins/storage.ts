import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MediaStorage } from '../storage/media-storage';
import { openStorage } from '../storage/open-storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: MediaStorage;
  }
}

/** `app.storage`: media on the local disk (DATA_DIR/media) or in an S3 bucket, as configured. */
export const storagePlugin = fp(
  async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
    const storage = opts.storage ?? openStorage(app.config.storage);
    app.decorate('storage', storage);
    app.healthProbes.set('storage', async () => {
      await storage.check();
      return { kind: storage.kind };
    });
    if (!opts.storage) app.addHook('onClose', async () => storage.close?.());
  },
  { name: 'app-storage', dependencies: ['app-config', 'app-health'] },
);
