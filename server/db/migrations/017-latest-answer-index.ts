import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * A run's latest answer (server/takes/runs.ts, `latestRatioOf`: the run history, the film list and the
 * report) is the last entry of this index for the run: with the run alone in the index, every row of
 * the run history sorted the run's answers in a temporary b-tree (SQLite) to find it, a cost that grew
 * with the run's answers (docs/performance.md, "A learner's history"). The new index leads with the
 * run, so it serves every lookup by run that the old one did.
 */
export const latestAnswerIndex: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex('question_records_run_time_idx')
      .on('question_records')
      .columns(['run_id', 'created_at', 'id'])
      .execute();
    await db.schema.dropIndex('question_records_run_idx').ifExists().execute();
  },
  async down(db: AnyDb) {
    await db.schema.createIndex('question_records_run_idx').on('question_records').column('run_id').execute();
    await db.schema.dropIndex('question_records_run_time_idx').ifExists().execute();
  },
};
