import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * What the film list reads of a learner's history, kept per (learner, part, film) as answers and runs
 * are written (server/takes/runs.ts, `bumpProgress`): how many runs and the best answer ratio. Without
 * it the list counted every run and scanned every answer of each film on every request, a cost that
 * grew with the learner's history (docs/performance.md, "A learner's history"). Also the index the
 * run history of one film pages by (most recently active first).
 */
export const historyScale: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('film_progress')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('part', 'text', (c) => c.notNull())
      .addColumn('film_id', 'text', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull())
      // max over the learner's answers to the film in the part of score / max_score (0 when
      // max_score is 0); null before the first answer.
      .addColumn('best_ratio', 'double precision')
      .addPrimaryKeyConstraint('film_progress_pk', ['user_id', 'part', 'film_id'])
      .execute();
    await db.schema
      .createIndex('runs_user_film_active_idx')
      .on('runs')
      .columns(['user_id', 'part', 'film_id', 'updated_at', 'id'])
      .execute();

    // The history so far, in two grouped passes (one per table), not a subquery per run.
    const counts = await db
      .selectFrom('runs')
      .select(['user_id', 'part', 'film_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['user_id', 'part', 'film_id'])
      .execute();
    const bests = await db
      .selectFrom('question_records')
      .select(['user_id', 'part', 'film_id'])
      .select(({ fn, ref, lit, eb }) =>
        fn
          .max(
            eb
              .case()
              .when(ref('max_score'), '>', lit(0))
              .then(eb(eb.cast(ref('score'), 'double precision'), '/', ref('max_score')))
              .else(lit(0))
              .end(),
          )
          .as('best'),
      )
      .groupBy(['user_id', 'part', 'film_id'])
      .execute();
    const key = (r: { user_id: string; part: string; film_id: string }) =>
      `${r.user_id}\u0000${r.part}\u0000${r.film_id}`;
    const best = new Map(bests.map((b) => [key(b), b.best == null ? null : Number(b.best)]));
    for (let i = 0; i < counts.length; i += 200) {
      await db
        .insertInto('film_progress')
        .values(
          counts.slice(i, i + 200).map((c) => ({
            user_id: c.user_id,
            part: c.part,
            film_id: c.film_id,
            runs: Number(c.n),
            best_ratio: best.get(key(c)) ?? null,
          })),
        )
        .execute();
    }
  },

  async down(db: AnyDb) {
    await db.schema.dropIndex('runs_user_film_active_idx').ifExists().execute();
    await db.schema.dropTable('film_progress').ifExists().execute();
  },
};
