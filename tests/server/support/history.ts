/**
 * A learner's long history written straight into the tables (runs, answers, takes and the
 * film_progress rows the service keeps beside them), thousands of runs in a second: for the scale
 * tests (tests/server/history-scale.test.ts) and `npm run bench:scale`, which then read it through
 * the real server. The shape is what the service writes: each run has one answer record and the
 * first and second take of its film's first line (part two).
 */
import type { Kysely } from 'kysely';
import type { Part } from '../../../src/api/contract';
import type { Database, RunsTable } from '../../../server/db/schema';
import { dubbingFigures } from '../../../server/takes/attempts';
import { seededScore } from './seed';

export interface HistorySeed {
  userId: string;
  part: Part;
  /** Films and the subtitle id each run's takes dub (part two). */
  films: { id: string; lineId: string }[];
  /** Runs to write, spread over the films round robin. */
  runs: number;
  /** Time of the first run; each next run starts a minute later. */
  from?: string;
  /** Max score of each answer record (its score cycles over 0, a third, two thirds, all). */
  maxScore?: number;
}

export interface SeededRun extends Omit<RunsTable, 'shares_revoked_at' | 'dubbed_lines' | 'dubbing_average'> {
  score: number;
  maxScore: number;
  /** Overall of the line's second take, the run's dubbing average (null in part one). */
  dubbing: number | null;
}

const CHUNK = 400;

async function insertChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** Writes the history (once per learner and part) and returns its runs, oldest first. */
export async function seedHistory(db: Kysely<Database>, h: HistorySeed): Promise<SeededRun[]> {
  const start = Date.parse(h.from ?? '2025-01-01T00:00:00.000Z');
  const maxScore = h.maxScore ?? 30;
  const runs: SeededRun[] = [];
  for (let i = 0; i < h.runs; i++) {
    const film = h.films[i % h.films.length];
    const at = (s: number) => new Date(start + i * 60_000 + s * 1000).toISOString();
    runs.push({
      id: `h-${h.userId}-${h.part}-${i}`,
      user_id: h.userId,
      film_id: film.id,
      part: h.part,
      started_at: at(0),
      updated_at: at(h.part === 'prpt' ? 3 : 1),
      score: ((i % 4) * maxScore) / 3,
      maxScore,
      dubbing: h.part === 'prpt' ? 40 + (i % 50) : null,
    });
  }
  // Part two: each run's first and second take of its film's first line.
  const takesOf = (r: SeededRun) => {
    if (h.part !== 'prpt') return [];
    const lineId = h.films.find((f) => f.id === r.film_id)!.lineId;
    return ([1, 2] as const).map((attempt) => {
      const id = `${r.id}-take-${attempt}`;
      const overall = attempt === 1 ? r.dubbing! - 10 : r.dubbing!;
      const createdAt = new Date(Date.parse(r.started_at) + (attempt + 1) * 1000).toISOString();
      const score = seededScore(id, {
        userId: r.user_id,
        filmId: r.film_id,
        subtitleId: lineId,
        attempt,
        overall,
        detected: 'happiness',
        createdAt,
      });
      return {
        id,
        user_id: r.user_id,
        film_id: r.film_id,
        subtitle_id: lineId,
        attempt,
        audio_key: `takes/${r.user_id}/${r.id}/${id}.wav`,
        result: JSON.stringify(score),
        overall,
        created_at: createdAt,
        run_id: r.id,
      };
    });
  };
  const runTakes = new Map(runs.map((r) => [r.id, takesOf(r)]));
  const takes = [...runTakes.values()].flat();
  // Each run's dubbing figures from its takes, as the service keeps them (server/takes/runs.ts, refreshRunDubbing).
  const figures = (runId: string) => dubbingFigures(runTakes.get(runId) ?? []);
  await db.transaction().execute(async (trx) => {
    await insertChunks(runs, (chunk) =>
      trx
        .insertInto('runs')
        .values(chunk.map(({ score, maxScore, dubbing, ...run }) => ({ ...run, ...figures(run.id) })))
        .execute(),
    );
    await insertChunks(runs, (chunk) =>
      trx
        .insertInto('question_records')
        .values(
          chunk.map((r) => ({
            id: `${r.id}-answers`,
            user_id: r.user_id,
            film_id: r.film_id,
            part: r.part,
            answers: '[]',
            results: '[]',
            score: r.score,
            max_score: r.maxScore,
            duration_ms: 60_000,
            created_at: new Date(Date.parse(r.started_at) + 1000).toISOString(),
            run_id: r.id,
          })),
        )
        .execute(),
    );
    await insertChunks(takes, (chunk) => trx.insertInto('takes').values(chunk).execute());
    // film_progress as the service keeps it (server/takes/runs.ts, bumpProgress).
    const progress = new Map<string, { runs: number; best: number }>();
    for (const r of runs) {
      const p = progress.get(r.film_id) ?? { runs: 0, best: 0 };
      p.runs += 1;
      p.best = Math.max(p.best, r.maxScore > 0 ? r.score / r.maxScore : 0);
      progress.set(r.film_id, p);
    }
    for (const [filmId, p] of progress) {
      await trx
        .insertInto('film_progress')
        .values({ user_id: h.userId, part: h.part, film_id: filmId, runs: p.runs, best_ratio: p.best })
        .execute();
    }
  });
  return runs;
}
