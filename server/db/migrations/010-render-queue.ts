import { type Kysely, type Migration, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * The dubbed-video render queue lives in dub_renders (server/renders/render-queue.ts): every instance
 * claims from it, so the per-learner round robin and the caps hold across the cluster.
 */
export const renderQueue: Migration = {
  async up(db: AnyDb) {
    for (const column of ['user_id', 'queued_at', 'started_at']) {
      await db.schema.alterTable('dub_renders').addColumn(column, 'text').execute();
    }
    await sql`update dub_renders set user_id = (select runs.user_id from runs where runs.id = dub_renders.run_id)`.execute(
      db,
    );
    await db.schema
      .createIndex('dub_renders_status_queued')
      .on('dub_renders')
      .columns(['status', 'queued_at'])
      .execute();
    await db.schema
      .createIndex('dub_renders_user_started')
      .on('dub_renders')
      .columns(['user_id', 'started_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('dub_renders_user_started').ifExists().execute();
    await db.schema.dropIndex('dub_renders_status_queued').ifExists().execute();
    for (const column of ['started_at', 'queued_at', 'user_id']) {
      await db.schema.alterTable('dub_renders').dropColumn(column).execute();
    }
  },
};
