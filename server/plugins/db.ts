import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import { connectDb, type DbHandle, type Engine, migrateToLatest } from '../db/connect';
import type { Database } from '../db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbEngine: Engine;
  }
}

export interface DbPluginOptions {
  /** An already open handle (tests, CLIs); otherwise one is opened from app.config. */
  handle?: DbHandle;
  /** Run migrations when the app starts (default true). */
  migrate?: boolean;
}

/** `app.db`: Kysely over SQLite or PostgreSQL. Closed with the app. */
export const dbPlugin = fp(
  async (app: FastifyInstance, opts: DbPluginOptions) => {
    const handle = opts.handle ?? connectDb(app.config);
    const owned = !opts.handle;
    if (opts.migrate !== false) await migrateToLatest(handle.db, app.config.databaseSchema);
    app.decorate('db', handle.db);
    app.decorate('dbEngine', handle.engine);
    app.healthProbes.set('database', async () => {
      await sql`select 1`.execute(handle.db);
      return { engine: handle.engine };
    });
    app.addHook('onClose', async () => {
      if (owned) await handle.db.destroy();
    });
  },
  { name: 'app-db', dependencies: ['app-config', 'app-health'] },
);
