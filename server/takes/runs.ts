/**
 * Runs (docs/api.md, "Runs"): one pass of a learner through one film in one part. Answers join the
 * latest run of (learner, film, part) while it has none, else start a new run; a take joins the run
 * the client names, else the latest part-two run of its film, else starts one. Part of the takes
 * repository: the SQL about runs lives here.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Part } from '../../src/api/contract';
import { prepared } from '../db/prepared';
import type { Database, QuestionRecordsTable, RunsTable, TakesTable } from '../db/schema';
import { newId, nowIso, sha256Hex } from '../lib/ids';
import { runCounts } from '../../src/audio/scoring/aggregate';
import { orderAttempts } from './attempts';

type Db = Kysely<Database> | Transaction<Database>;

/** The learner's newest run of a film in a part. */
export async function latestRun(
  db: Db,
  userId: string,
  filmId: string,
  part: Part,
): Promise<RunsTable | null> {
  const row = await db
    .selectFrom('runs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('part', '=', part)
    .where('film_id', '=', filmId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** The learner's most recently active run in a part, whatever the film. */
export async function latestRunInPart(db: Db, userId: string, part: Part): Promise<RunsTable | null> {
  const [run] = await listRuns(db, userId, part, undefined, 1);
  return run ?? null;
}

/** A run by id; with a user id, only that learner's (someone else's run is simply not found). */
export async function findRun(db: Db, runId: string, userId?: string): Promise<RunsTable | null> {
  let q = db.selectFrom('runs').selectAll().where('id', '=', runId);
  if (userId) q = q.where('user_id', '=', userId);
  return (await q.executeTakeFirst()) ?? null;
}

/** The run of an answer record (record ids are what save_question_record hands out). */
export async function runOfRecord(db: Db, recordId: string, userId?: string): Promise<RunsTable | null> {
  let q = db
    .selectFrom('question_records')
    .innerJoin('runs', 'runs.id', 'question_records.run_id')
    .selectAll('runs')
    .where('question_records.id', '=', recordId);
  if (userId) q = q.where('question_records.user_id', '=', userId);
  return (await q.executeTakeFirst()) ?? null;
}

/** The learner's runs in a part (optionally of one film), most recently active first. */
export function listRuns(
  db: Db,
  userId: string,
  part: Part,
  filmId: string | undefined,
  limit: number,
): Promise<RunsTable[]> {
  let q = db.selectFrom('runs').selectAll().where('user_id', '=', userId).where('part', '=', part);
  if (filmId) q = q.where('film_id', '=', filmId);
  return q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * The run new answers belong to, inside the transaction that stores them: the latest run of
 * (learner, film, part) while it has no answers (the learner dubbed first), else a new run.
 */
export async function runForAnswers(
  trx: Transaction<Database>,
  userId: string,
  filmId: string,
  part: Part,
  at: string,
): Promise<string> {
  // The latest run and whether it has answers, in one statement.
  const latest = await trx
    .selectFrom('runs')
    .select((eb) => [
      'runs.id',
      eb
        .exists(
          eb
            .selectFrom('question_records')
            .select('question_records.id')
            .whereRef('question_records.run_id', '=', 'runs.id'),
        )
        .as('answered'),
    ])
    .where('runs.user_id', '=', userId)
    .where('runs.part', '=', part)
    .where('runs.film_id', '=', filmId)
    .orderBy('runs.started_at', 'desc')
    .orderBy('runs.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // SQLite answers EXISTS as 0/1, PostgreSQL as a boolean.
  if (latest && !Number(latest.answered)) {
    await touchRun(trx, latest.id, at);
    return latest.id;
  }
  const id = newId();
  await trx
    .insertInto('runs')
    .values({ id, user_id: userId, film_id: filmId, part, started_at: at, updated_at: at })
    .execute();
  return id;
}

/**
 * The run a new take joins: the learner's run named by the client (its own run of this film in part
 * two), else the latest part-two run of the film, else a new one. The first run of a film is created
 * with an id derived from (learner, film), so concurrent first takes agree on one run.
 */
export async function runForTake(
  db: Kysely<Database>,
  userId: string,
  filmId: string,
  requested: string | undefined,
): Promise<RunsTable> {
  if (requested) {
    const run = await findRun(db, requested, userId);
    if (run && run.film_id === filmId && run.part === 'prpt') return run;
  }
  const latest = await latestRun(db, userId, filmId, 'prpt');
  if (latest) return latest;
  const at = nowIso();
  await db
    .insertInto('runs')
    .values({
      id: sha256Hex(`${userId}:${filmId}:prpt:first-run`).slice(0, 32),
      user_id: userId,
      film_id: filmId,
      part: 'prpt',
      started_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return (await latestRun(db, userId, filmId, 'prpt'))!;
}

export async function touchRun(db: Db, runId: string, at: string): Promise<void> {
  await db
    .updateTable('runs')
    .set({ updated_at: at })
    .where('id', '=', runId)
    .where('updated_at', '<', at)
    .execute();
}

/** A run's answers: its latest record (null before answering). */
export async function runRecord(db: Db, runId: string): Promise<QuestionRecordsTable | null> {
  const row = await db
    .selectFrom('question_records')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** A run's takes, oldest first. */
export function runTakes(db: Db, runId: string): Promise<TakesTable[]> {
  return db
    .selectFrom('takes')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function runHasTakes(db: Db, runId: string): Promise<boolean> {
  const row = await db
    .selectFrom('takes')
    .select('id')
    .where('run_id', '=', runId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Per run: its answers' percent and the dubbing average and line count by the attempt rule. */
export interface RunFigures {
  answered: boolean;
  answerPercent: number | null;
  dubbedLines: number;
  dubbingAverage: number | null;
}

export async function runFigures(db: Db, runIds: string[]): Promise<Map<string, RunFigures>> {
  const out = new Map<string, RunFigures>();
  if (runIds.length === 0) return out;
  const [records, takes] = await Promise.all([
    db
      .selectFrom('question_records')
      .select(['run_id', 'score', 'max_score', 'created_at', 'id'])
      .where('run_id', 'in', runIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('takes')
      .select(['id', 'run_id', 'subtitle_id', 'attempt', 'created_at', 'overall', 'speech'])
      .where('run_id', 'in', runIds)
      .execute(),
  ]);
  for (const id of runIds)
    out.set(id, { answered: false, answerPercent: null, dubbedLines: 0, dubbingAverage: null });
  for (const r of records) {
    // Ordered oldest first: the run's latest record wins, as in runRecord.
    const f = out.get(r.run_id!)!;
    f.answered = true;
    f.answerPercent = r.max_score > 0 ? Math.round((r.score / r.max_score) * 100) : 0;
  }
  const byRun = new Map<string, typeof takes>();
  for (const t of takes) {
    const list = byRun.get(t.run_id!) ?? [];
    list.push(t);
    byRun.set(t.run_id!, list);
  }
  for (const [runId, rows] of byRun) {
    // The rule of src/audio/scoring/aggregate.ts, as the run's report applies it.
    const counted = (t: (typeof rows)[number]) => ({ overall: t.overall, speechDetected: t.speech !== 0 });
    const counts = runCounts(
      [...orderAttempts(rows)].map(([subtitlesId, a]) => ({
        subtitlesId,
        first: counted(a.first),
        second: a.second ? counted(a.second) : null,
      })),
    );
    const f = out.get(runId)!;
    f.dubbedLines = counts.dubbedLines;
    f.dubbingAverage = counts.average;
  }
  return out;
}

/**
 * The learner's runs in a part, each with the best answer ratio of its film over every run: one
 * statement (a round trip fewer on PostgreSQL, docs/performance.md). `double precision` is REAL in
 * SQLite too, so both engines divide as JavaScript does.
 */
const learnerRuns = prepared((db, userId: string, part: Part) =>
  db
    .selectFrom('runs as r')
    .selectAll('r')
    .select((eb) =>
      eb
        .selectFrom('question_records as q')
        .select(
          sql<
            number | null
          >`max(case when q.max_score > 0 then cast(q.score as double precision) / q.max_score else 0 end)`.as(
            'best',
          ),
        )
        .whereRef('q.user_id', '=', 'r.user_id')
        .whereRef('q.part', '=', 'r.part')
        .whereRef('q.film_id', '=', 'r.film_id')
        .as('best_ratio'),
    )
    .where('r.user_id', '=', userId)
    .where('r.part', '=', part),
);

/** Per film: the learner's latest run in the part, how many runs, and the best answer percent of all. */
export async function runsByFilm(
  db: Db,
  userId: string,
  part: Part,
  filmIds: string[],
): Promise<Map<string, { latest: RunsTable; count: number; bestPercent: number | null }>> {
  const out = new Map<string, { latest: RunsTable; count: number; bestPercent: number | null }>();
  if (filmIds.length === 0) return out;
  // All of the learner's runs and records in the part, filtered here: a fixed-shape query is prepared
  // once (server/db/prepared.ts), and a learner has a few runs per film.
  const wanted = new Set(filmIds);
  const runs = (await learnerRuns(db, userId, part)).filter((r) => wanted.has(r.film_id));
  const newer = (a: RunsTable, b: RunsTable) =>
    a.started_at > b.started_at || (a.started_at === b.started_at && a.id > b.id);
  for (const { best_ratio, ...run } of runs) {
    const entry = out.get(run.film_id);
    // Math.round is monotonic: the rounded best ratio is the best of the rounded percents.
    const bestPercent = best_ratio == null ? null : Math.round(best_ratio * 100);
    if (!entry) out.set(run.film_id, { latest: run, count: 1, bestPercent });
    else {
      entry.count += 1;
      if (newer(run, entry.latest)) entry.latest = run;
    }
  }
  return out;
}

/**
 * The run a report call names: `runId`, else the run of the answer record `id` (a report's `id` is
 * the run's id while the run has no answers), else the latest run of `filmId`, else the learner's most
 * recently active run in the part. Only the learner's own runs in this part are found.
 */
export async function pickRun(
  db: Db,
  userId: string,
  part: Part,
  query: { runId?: string; id?: string; filmId?: string },
): Promise<RunsTable | null> {
  let run: RunsTable | null;
  if (query.runId) run = await findRun(db, query.runId, userId);
  else if (query.id) run = (await runOfRecord(db, query.id, userId)) ?? (await findRun(db, query.id, userId));
  else if (query.filmId) run = await latestRun(db, userId, query.filmId, part);
  else run = await latestRunInPart(db, userId, part);
  return run && run.part === part ? run : null;
}
