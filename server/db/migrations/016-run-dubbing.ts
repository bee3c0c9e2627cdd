import type { Kysely, Migration } from 'kysely';
import { dubbingFigures, type TakeCount } from '../../takes/attempts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/** Runs whose takes are read per pass of the backfill. */
const RUNS_PER_PASS = 500;

/**
 * A run's dubbing figures on its row (server/takes/runs.ts, `refreshRunDubbing`): the run history, the
 * film list and the report's curve read them there instead of every take of the page's runs, a cost
 * that grew with the page (docs/performance.md, "A learner's history"). The runs that have takes are
 * filled in from them by the same rule.
 */
export const runDubbing: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('runs')
      .addColumn('dubbed_lines', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('runs').addColumn('dubbing_average', 'double precision').execute();
    const withTakes = (await db.selectFrom('takes').select('run_id').distinct().execute())
      .map((r) => r.run_id as string | null)
      .filter((id): id is string => id !== null);
    for (let i = 0; i < withTakes.length; i += RUNS_PER_PASS) {
      const ids = withTakes.slice(i, i + RUNS_PER_PASS);
      const takes = (await db
        .selectFrom('takes')
        .select(['run_id', 'id', 'subtitle_id', 'attempt', 'created_at', 'overall', 'speech'])
        .where('run_id', 'in', ids)
        .execute()) as (TakeCount & { run_id: string })[];
      const byRun = new Map<string, TakeCount[]>();
      for (const t of takes) {
        const list = byRun.get(t.run_id);
        if (list) list.push(t);
        else byRun.set(t.run_id, [t]);
      }
      for (const [runId, rows] of byRun)
        await db.updateTable('runs').set(dubbingFigures(rows)).where('id', '=', runId).execute();
    }
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('runs').dropColumn('dubbing_average').execute();
    await db.schema.alterTable('runs').dropColumn('dubbed_lines').execute();
  },
};
