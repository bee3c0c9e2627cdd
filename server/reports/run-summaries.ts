import type { Kysely } from 'kysely';
import type { Part, RunSummary } from '../../src/api/contract';
import type { Database, RunsTable } from '../db/schema';
import { filmFactsCached } from '../films/queries';
import { runFigures } from '../takes/runs';

/** Runs as the history list and the progress curve show them (same figures as each run's report). */
export async function summariseRuns(db: Kysely<Database>, runs: RunsTable[]): Promise<RunSummary[]> {
  const filmIds = [...new Set(runs.map((r) => r.film_id))];
  const [figures, facts] = await Promise.all([
    runFigures(
      db,
      runs.map((r) => r.id),
    ),
    filmIds.length ? filmFactsCached(db, filmIds) : new Map<string, never>(),
  ]);
  return runs.map((run) => {
    const f = figures.get(run.id)!;
    const title = facts.get(run.film_id);
    return {
      runId: run.id,
      part: run.part as Part,
      filmId: run.film_id,
      filmTitle: title?.title ?? run.film_id,
      filmTitleEn: title?.title_en ?? run.film_id,
      startedAt: run.started_at,
      updatedAt: run.updated_at,
      answered: f.answered,
      answerPercent: f.answerPercent,
      dubbedLines: f.dubbedLines,
      totalLines: run.part === 'prpt' ? (title?.lineCount ?? 0) : 0,
      dubbingAverage: f.dubbingAverage,
    };
  });
}
