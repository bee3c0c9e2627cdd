import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * A run's latest answer ratio (server/takes/runs.ts, `latestRatioOf`) read from the index alone: the
 * index of 017-latest-answer-index.ts with the answer's score and max score after its keys, so the
 * lookup that finds the run's last entry no longer reads the answer's row (its answers and results
 * text) for two numbers. One probe fewer per run of the run history and per film of the film list
 * (docs/performance.md, "A learner's history").
 */
export const latestAnswerCover: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex('question_records_run_latest_idx')
      .on('question_records')
      .columns(['run_id', 'created_at', 'id', 'score', 'max_score'])
      .execute();
    await db.schema.dropIndex('question_records_run_time_idx').ifExists().execute();
  },
  async down(db: AnyDb) {
    await db.schema
      .createIndex('question_records_run_time_idx')
      .on('question_records')
      .columns(['run_id', 'created_at', 'id'])
      .execute();
    await db.schema.dropIndex('question_records_run_latest_idx').ifExists().execute();
  },
};
