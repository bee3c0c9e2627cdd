import type { Kysely } from 'kysely';
import type { Part, RunSummary } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { filmFactsCached } from '../films/queries';
import { type RunRow, runFigures } from '../takes/runs';

/** Runs as the history list and the progress curve show them (same figures as each run's report). */
export async function summariseRuns(db: Kysely<Database>, runs: RunRow[]): Promise<RunSummary[]> {
  const filmIds = [...new Set(runs.map((r) => r.film_id))];
  const facts = filmIds.length ? await filmFactsCached(db, filmIds) : new Map<string, never>();
  return runs.map((run) => {
    const f = runFigures(run);
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
