import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/** Each run's rendered dubbed video (server/renders/dub-video.ts); goes with its run. */
export const dubRenders: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('dub_renders')
      .addColumn('run_id', 'text', (c) => c.primaryKey().references('runs.id').onDelete('cascade'))
      .addColumn('signature', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('media_key', 'text')
      .addColumn('error', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('dub_renders').ifExists().execute();
  },
};
