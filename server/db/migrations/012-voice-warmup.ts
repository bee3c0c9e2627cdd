import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * A learner's voice warm-up (server/takes/warmup.ts): a few seconds of a neutral line before the first
 * take, or the learner's choice to skip it. Recorded, its features seed speaker_stats so the first
 * real take is read against the learner's own voice; either way it is asked only once.
 */
export const voiceWarmup: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('voice_warmups')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      // 'recorded' or 'skipped'.
      .addColumn('status', 'text', (c) => c.notNull())
      // The warm-up's utterance features (JSON number array); null when skipped.
      .addColumn('features', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('voice_warmups').ifExists().execute();
  },
};
