import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/** Bytes of take audio each learner uploaded, per hour: the daily upload limit reads the last 24. */
export const uploadUsage: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('upload_usage')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('upload_usage_pk', ['user_id', 'hour'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('upload_usage').ifExists().execute();
  },
};
