import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FsMediaStorage } from '../storage/fs-storage';
import type { MediaStorage } from '../storage/media-storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: MediaStorage;
  }
}

/** `app.storage`: media under DATA_DIR/media (swap for an object store by passing another MediaStorage). */
export const storagePlugin = fp(
  async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
    app.decorate('storage', opts.storage ?? new FsMediaStorage(path.join(app.config.dataDir, 'media')));
  },
  { name: 'app-storage', dependencies: ['app-config'] },
);
