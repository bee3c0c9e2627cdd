/**
 * Runs (docs/api.md, "Runs"): one pass of a learner through one film in one part. Answers join the
 * latest run of (learner, film, part) while it has none, else start a new run; a take joins the run
 * the client names, else the latest part-two run of its film, else starts one. Part of the takes
 * repository: the SQL about runs lives here.
 */
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type OnConflictBuilder,
  PostgresAdapter,
  type QueryCreator,
  sql,
  type Transaction,
} from 'kysely';
import type DataLoader from 'dataloader';
import type { Part, User } from '../../src/api/contract';
import { findSessionUser, liveSessionUser, sessionUserQuery } from '../auth/sessions';
import { turnBatcher } from '../db/batch';
import { prepared } from '../db/prepared';
import { columnsOf, rowValues } from '../db/row-values';
import type { Database, FilmProgressTable, QuestionRecordsTable, RunsTable, TakesTable } from '../db/schema';
import { newId, nowIso, sha256Hex } from '../lib/ids';
import { dubbingFigures } from './attempts';

type Db = Kysely<Database> | Transaction<Database>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * A bound value of a statement over one table, as a scalar subquery on SQLite: SQLite plans a
 * statement anew on every run when a bound value beside an ORDER BY, or in `LIMIT ?`, could change its
 * plan, but not when it comes from a subquery (the same rows from the same index, 3–4 µs a run
 * against 16–18; docs/performance.md, "The film list against its floor"). PostgreSQL keeps the plain
 * value: it plans a named prepared statement once per connection.
 */
const plannedOnce = <T>(db: Db, value: T): T | Expression<T> =>
  isPostgres(db) ? value : sql<T>`(select ${value})`;

/** A run as the history, the report's curve and the run state read it: its row and its latest answer ratio. */
export type RunRow = RunsTable & { latest_ratio: number | null };

/** Runs with their latest answer ratio, one probe of `question_records_run_latest_idx` each (latestRatioOf). */
const runsWithRatio = (db: Db) =>
  db.selectFrom('runs').selectAll().select(latestRatioOf(db, 'runs.id').as('latest_ratio'));

/** A learner's runs in a part, their values planned once (plannedOnce). */
const learnerRuns = (db: Db, userId: string, part: Part) =>
  runsWithRatio(db).where('user_id', '=', plannedOnce(db, userId)).where('part', '=', plannedOnce(db, part));

/** The learner's newest run of a film in a part. */
export async function latestRun(db: Db, userId: string, filmId: string, part: Part): Promise<RunRow | null> {
  const row = await learnerRuns(db, userId, part)
    .where('film_id', '=', plannedOnce(db, filmId))
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(plannedOnce(db, 1))
    .executeTakeFirst();
  return row ?? null;
}

/** The learner's most recently active run in a part, whatever the film. */
export async function latestRunInPart(db: Db, userId: string, part: Part): Promise<RunRow | null> {
  const [run] = await listRuns(db, userId, part, undefined, 1);
  return run ?? null;
}

/** A run by id; with a user id, only that learner's (someone else's run is simply not found). */
export async function findRun(db: Db, runId: string, userId?: string): Promise<RunRow | null> {
  let q = runsWithRatio(db).where('id', '=', runId);
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

/** A learner's runs in a part, most recently active first (compiled once: the run history, the report's curve). */
const runsOfPart = prepared((db, userId: string, part: Part, limit: number) =>
  learnerRuns(db, userId, part)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(plannedOnce(db, limit)),
);

/** The same of one film. */
const runsOfFilm = prepared((db, userId: string, part: Part, filmId: string, limit: number) =>
  learnerRuns(db, userId, part)
    .where('film_id', '=', plannedOnce(db, filmId))
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(plannedOnce(db, limit)),
);

/** The learner's runs in a part (optionally of one film), most recently active first. */
export function listRuns(
  db: Db,
  userId: string,
  part: Part,
  filmId: string | undefined,
  limit: number,
): Promise<RunRow[]> {
  return filmId ? runsOfFilm(db, userId, part, filmId, limit) : runsOfPart(db, userId, part, limit);
}

/**
 * A learner's id, a film or a part in a statement: a value, or a column of the statement (each save
 * of a batch, server/films/answers.ts).
 */
export type Of<T> = T | Expression<T>;

/** The id of the learner's newest run of a film in a part, as a subquery. */
const latestRunId = (db: QueryCreator<Database>, userId: Of<string>, filmId: Of<string>, part: Of<Part>) =>
  db
    .selectFrom('runs')
    .select('runs.id')
    .where('runs.user_id', '=', userId)
    .where('runs.part', '=', part)
    .where('runs.film_id', '=', filmId)
    .orderBy('runs.started_at', 'desc')
    .orderBy('runs.id', 'desc')
    .limit(1);

/** The learner's newest run of a film in a part while it has no answers (the learner dubbed first). */
export const openRunId = (
  db: QueryCreator<Database>,
  userId: Of<string>,
  filmId: Of<string>,
  part: Of<Part>,
) =>
  db
    .selectFrom(latestRunId(db, userId, filmId, part).as('l'))
    .select('l.id')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('question_records as q').select('q.id').whereRef('q.run_id', '=', 'l.id'))),
    );

/** Inserts run `id`, started at `at`, unless an open run (openRunId) is there to join; returns its id. */
const startRunUnlessOpen = (
  db: QueryCreator<Database>,
  id: string,
  userId: string,
  filmId: string,
  part: Part,
  at: string,
) => {
  const row = { id, user_id: userId, film_id: filmId, part, started_at: at, updated_at: at };
  return db
    .insertInto('runs')
    .columns(columnsOf(row))
    .expression(
      db
        .selectNoFrom((eb) => rowValues(eb, row))
        .where(({ not, exists }) => not(exists(openRunId(db, userId, filmId, part)))),
    )
    .returning('id');
};

/** Marks the open run (openRunId) active at `at`, never moving it back; returns its id. */
const joinOpenRun = (db: QueryCreator<Database>, userId: string, filmId: string, part: Part, at: string) =>
  db
    .updateTable('runs')
    .set((eb) => ({
      updated_at: eb.case().when('runs.updated_at', '<', at).then(at).else(eb.ref('runs.updated_at')).end(),
    }))
    .where('runs.id', 'in', openRunId(db, userId, filmId, part))
    .returning('runs.id');

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
): Promise<{ runId: string; created: boolean }> {
  // A new run unless the latest has no answers yet, in one statement: answering usually starts a run.
  const inserted = await startRunUnlessOpen(trx, newId(), userId, filmId, part, at).executeTakeFirst();
  if (inserted) return { runId: inserted.id, created: true };
  const joined = await joinOpenRun(trx, userId, filmId, part, at).executeTakeFirstOrThrow();
  return { runId: joined.id, created: false };
}

/**
 * Keeps the learner's film_progress row (server/db/migrations/008-history-scale.ts) in step with a
 * write, in the write's transaction: `newRuns` runs were created, and `ratio` (score / max_score, 0
 * when max_score is 0) was answered, or null when no answer was stored.
 */
export async function bumpProgress(
  db: Db,
  userId: string,
  part: Part,
  filmId: string,
  newRuns: number,
  ratio: number | null,
): Promise<void> {
  await db
    .insertInto('film_progress')
    .values({ user_id: userId, part, film_id: filmId, runs: newRuns, best_ratio: ratio })
    .onConflict(addToProgress)
    .execute();
}

/** film_progress's upsert: the new runs are added, the best ratio kept (bumpProgress). */
export const addToProgress = (oc: OnConflictBuilder<Database, 'film_progress'>) =>
  oc.columns(['user_id', 'part', 'film_id']).doUpdateSet((eb) => ({
    runs: eb(eb.ref('film_progress.runs'), '+', eb.ref('excluded.runs')),
    best_ratio: eb
      .case()
      .when(eb.ref('film_progress.best_ratio'), 'is', null)
      .then(eb.ref('excluded.best_ratio'))
      .when(eb.ref('excluded.best_ratio'), '>', eb.ref('film_progress.best_ratio'))
      .then(eb.ref('excluded.best_ratio'))
      .else(eb.ref('film_progress.best_ratio'))
      .end(),
  }));

/** An answer's ratio as film_progress keeps it (double precision, divided as JavaScript divides). */
export const answerRatio = (score: number, maxScore: number): number => (maxScore > 0 ? score / maxScore : 0);

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
  await db.transaction().execute(async (trx) => {
    const [inserted] = await trx
      .insertInto('runs')
      .values({
        id: sha256Hex(`${userId}:${filmId}:prpt:first-run`).slice(0, 32),
        user_id: userId,
        film_id: filmId,
        part: 'prpt',
        started_at: at,
        updated_at: at,
        dubbed_lines: 0,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    // A concurrent first take that lost the race created nothing: the run is counted once.
    if (inserted) await bumpProgress(trx, userId, 'prpt', filmId, 1, null);
  });
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
    .where('run_id', '=', plannedOnce(db, runId))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(plannedOnce(db, 1))
    .executeTakeFirst();
  return row ?? null;
}

/** A run's takes, oldest first. */
export function runTakes(db: Db, runId: string): Promise<TakesTable[]> {
  return db
    .selectFrom('takes')
    .selectAll()
    .where('run_id', '=', plannedOnce(db, runId))
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

/** Per run: its latest answer's percent and its dubbing figures, as its row and its latest answer keep them. */
export function runFigures(run: RunRow): RunFigures {
  return {
    answered: run.latest_ratio !== null,
    // Divided in double precision, as JavaScript divides: the percent the report shows.
    answerPercent: run.latest_ratio === null ? null : Math.round(Number(run.latest_ratio) * 100),
    dubbedLines: run.dubbed_lines,
    dubbingAverage: run.dubbing_average,
  };
}

/**
 * Keeps a run's dubbing figures (`runs.dubbed_lines`, `runs.dubbing_average`) in step with its takes,
 * in the transaction of the write that added or removed one: the run history, the film list and the
 * report's curve then read them from the run's row, whatever the number of takes behind it. On
 * PostgreSQL the run's row is locked before its takes are read, so two takes of one run stored at
 * once both count (the second reads the takes the first committed); SQLite has one writer.
 */
export async function refreshRunDubbing(db: Db, runId: string): Promise<void> {
  if (isPostgres(db)) await sql`select 1 from runs where id = ${runId} for update`.execute(db);
  const takes = await db
    .selectFrom('takes')
    .select(['id', 'subtitle_id', 'attempt', 'created_at', 'overall', 'speech'])
    .where('run_id', '=', runId)
    .execute();
  await db.updateTable('runs').set(dubbingFigures(takes)).where('id', '=', runId).execute();
}

/** What the film list and the film detail read of a film's latest run. */
const LATEST_RUN_COLUMNS = ['id', 'film_id', 'updated_at', 'dubbed_lines', 'dubbing_average'] as const;
type LatestRun = Pick<RunsTable, (typeof LATEST_RUN_COLUMNS)[number]>;

/** What the film list shows of a learner's history of one film (docs/api.md, "Runs"). */
export interface FilmRunsProgress {
  /** The learner's latest run of the film in the part (by start). */
  latest: LatestRun;
  /** How many runs. */
  count: number;
  /** Best answer percent over every run; null before the first answer. */
  bestPercent: number | null;
  /** The latest run's answers: its latest record's percent; null while the run has none. */
  latestPercent: number | null;
  dubbedLines: number;
  dubbingAverage: number | null;
}

/** The latest run of the film_progress row `p`'s (learner, part, film): one probe of `runs_user_film_idx`. */
const latestRunOf = (eb: ExpressionBuilder<Database & { p: FilmProgressTable }, 'p'>) =>
  eb
    .selectFrom('runs as l')
    .whereRef('l.user_id', '=', 'p.user_id')
    .whereRef('l.part', '=', 'p.part')
    .whereRef('l.film_id', '=', 'p.film_id')
    .orderBy('l.started_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(1);

/**
 * The latest answer ratio of the run `r` of the statement, divided in `double precision` (REAL in
 * SQLite too) as JavaScript divides, so the rounded percents are the report's.
 */
const latestRatioOf = (db: QueryCreator<Database>, run: 'r.id' | 'runs.id' = 'r.id') =>
  db
    .selectFrom('question_records as q')
    .select(
      sql<
        number | null
      >`case when q.max_score > 0 then cast(q.score as double precision) / q.max_score else 0 end`.as(
        'ratio',
      ),
    )
    .where('q.run_id', '=', sql.ref<string>(run))
    .orderBy('q.created_at', 'desc')
    .orderBy('q.id', 'desc')
    .limit(1);

/**
 * Per film: the learner's film_progress row, its latest run and that run's latest answer ratio
 * (runsByFilm), on PostgreSQL. `user` is the learner's id, or a subquery that finds it. The latest run
 * is found in a LATERAL subquery, one index probe per film: joined on `r.id = (subquery)`, the planner
 * hashed every row of `runs` instead (6 ms at 10 000 runs, growing with the table).
 */
function progressRowsQuery(
  db: QueryCreator<Database>,
  user: string | Expression<string>,
  part: Part,
  filmIds: string[],
) {
  return db
    .selectFrom('film_progress as p')
    .innerJoinLateral(
      (eb) =>
        latestRunOf(eb)
          .select(LATEST_RUN_COLUMNS.map((c) => `l.${c}` as const))
          .as('r'),
      (join) => join.onTrue(),
    )
    .select(LATEST_RUN_COLUMNS.map((c) => `r.${c}` as const))
    .select(['p.runs as run_count', 'p.best_ratio'])
    .select(latestRatioOf(db).as('latest_ratio'))
    .where('p.user_id', '=', user)
    .where('p.part', '=', part)
    .where('p.film_id', 'in', filmIds);
}

/**
 * progressRowsQuery's rows on SQLite, which has no LATERAL: each of the page's film_progress rows
 * joined to its latest run by that run's rowid, each row read once. The rowid is in every index of
 * `runs`, so the latest run is found in `runs_user_film_idx` alone and read by its rowid, with no
 * probe of the id's own index between them. `user` is the learner's id or a subquery that finds it
 * (latestRunsOfSessionSqlite). An id and the part come through plannedOnce: as bound values, SQLite
 * would plan the join again on every run (docs/performance.md, "The film list against its floor").
 */
function progressRowsQuerySqlite(db: Db, user: string | Expression<string>, part: Part, filmIds: string[]) {
  return db
    .selectFrom('film_progress as p')
    .innerJoin('runs as r', (join) =>
      join.on((eb) =>
        eb(
          sql.ref<number>('r.rowid'),
          '=',
          latestRunOf(eb).select(sql.ref<number>('l.rowid').as('rowid')).$asScalar(),
        ),
      ),
    )
    .select(LATEST_RUN_COLUMNS.map((c) => `r.${c}` as const))
    .select(['p.runs as run_count', 'p.best_ratio'])
    .select(latestRatioOf(db).as('latest_ratio'))
    .where('p.user_id', '=', typeof user === 'string' ? plannedOnce(db, user) : user)
    .where('p.part', '=', plannedOnce(db, part))
    .where('p.film_id', 'in', filmIds);
}

/** The page's progress rows for a learner's id, built and compiled once per page length (server/db/prepared.ts). */
const latestRunsOfFilms = prepared((db, userId: string, part: Part, filmIds: string[]) =>
  isPostgres(db)
    ? progressRowsQuery(db, userId, part, filmIds)
    : progressRowsQuerySqlite(db, userId, part, filmIds),
);

/**
 * progressRowsQuery for the learners of several session tokens at once, each with its session
 * (PostgreSQL): per token hash, one row per film with runs, or one row of nulls beside the session
 * when there are none; no row for a token nobody holds. Each session is read once, and its learner's
 * rows joined LATERAL to it, in the same round trip as the page's history (docs/performance.md, "The
 * PostgreSQL list and save now"). `hashes` are the tokens' SHA-256 in hex joined by commas: one
 * parameter however many there are, so the statement is prepared once per page length.
 */
const latestRunsOfSessions = prepared((db, hashes: string, part: Part, filmIds: string[]) =>
  db
    .selectFrom(sql<{ hash: string }>`unnest(string_to_array(${hashes}, ','))`.as<'t'>(sql`t(hash)`))
    .innerJoinLateral(sessionUserQuery(db, sql.ref<string>('t.hash')).as('me'), (join) => join.onTrue())
    .leftJoinLateral(progressRowsQuery(db, sql.ref<string>('me.id'), part, filmIds).as('x'), (join) =>
      join.onTrue(),
    )
    .select([
      't.hash as me_hash',
      'me.id as me_id',
      'me.account as me_account',
      'me.nickname as me_nickname',
      'me.expires_at as me_expires_at',
    ])
    .selectAll('x'),
);

/**
 * latestRunsOfSessions for one session on SQLite, which has no LATERAL: the session's row by its
 * token's hash (no row for a token nobody holds), then its learner's progressRowsQuerySqlite rows,
 * the learner found by the same hash. A UNION ALL, not a join, so the learner's columns are read once,
 * not beside each of the page's films. The values come through plannedOnce or a subquery, and the
 * learner's columns are read by key in subqueries, so SQLite plans the statement once
 * (server/auth/sessions.ts).
 */
const latestRunsOfSessionSqlite = prepared((db, hash: string, part: Part, filmIds: string[]) => {
  // Typed as what the other side of the union gives: each column is null on one side.
  const none = sql<null>`null`;
  const unread = sql<unknown>`null`;
  return db
    .selectFrom('sessions as s')
    .select((eb) => {
      const user = eb.selectFrom('users').whereRef('users.id', '=', 's.user_id');
      return [
        ...LATEST_RUN_COLUMNS.map((c) => unread.as(c)),
        unread.as('run_count'),
        unread.as('best_ratio'),
        unread.as('latest_ratio'),
        eb.ref('s.user_id').$castTo<string | null>().as('me_id'),
        user.select('users.account').$asScalar().$castTo<string | null>().as('me_account'),
        user.select('users.nickname').$asScalar().$castTo<string | null>().as('me_nickname'),
        eb.ref('s.expires_at').$castTo<string | null>().as('me_expires_at'),
      ];
    })
    .where('s.token_hash', '=', plannedOnce(db, hash))
    .unionAll(
      progressRowsQuerySqlite(
        db,
        db.selectFrom('sessions').select('user_id').where('token_hash', '=', hash).$asScalar(),
        part,
        filmIds,
      ).select([none.as('me_id'), none.as('me_account'), none.as('me_nickname'), none.as('me_expires_at')]),
    );
});

type ProgressRow = LatestRun & {
  run_count: number | string;
  best_ratio: number | null;
  latest_ratio: unknown;
};

/**
 * Per film of a page: the learner's film_progress row, its latest run (one index probe per film)
 * with its dubbing figures, and that run's latest answer ratio, in one statement. The cost is
 * bounded by the page, whatever the learner's history (docs/performance.md, "A learner's history").
 * The ratios are divided in `double precision` (REAL in SQLite too), as JavaScript divides, so the
 * rounded percents are the report's.
 */
export async function runsByFilm(
  db: Db,
  userId: string,
  part: Part,
  filmIds: string[],
): Promise<Map<string, FilmRunsProgress>> {
  if (filmIds.length === 0) return new Map();
  return filmRunsProgress(await latestRunsOfFilms(db, userId, part, filmIds));
}

/**
 * runsByFilm for the learner of a session token, with that learner; null when the token is unknown
 * or expired. The session is read in the same statement as the page's history: on PostgreSQL one
 * round trip fewer per request, on SQLite one statement fewer (a run of a statement inside a request
 * costs two to three times what it costs alone; docs/performance.md, "The film list against its floor").
 */
export async function runsByFilmOfSession(
  db: Kysely<Database>,
  token: string,
  part: Part,
  filmIds: string[],
): Promise<{ user: User; progress: Map<string, FilmRunsProgress> } | null> {
  if (filmIds.length === 0) {
    const user = await findSessionUser(db, token);
    return user && { user, progress: new Map() };
  }
  if (!isPostgres(db))
    return pageOfSession(await latestRunsOfSessionSqlite(db, sha256Hex(token), part, filmIds));
  return pageLoader(db, part, filmIds).load(sha256Hex(token));
}

type PageOfSession = { user: User; progress: Map<string, FilmRunsProgress> } | null;

/** Loaders per database, part and page of films; past this many pages they start over. */
const PAGE_LOADERS = 200;
/** Sessions per statement at most: its rows are sessions × the page's films (≤ 100 films a page). */
const SESSIONS_PER_STATEMENT = 64;
const pageLoaders = new WeakMap<Kysely<Database>, Map<string, DataLoader<string, PageOfSession>>>();

/** The film lists of one page asked for in one turn of the event loop, read by one statement (server/db/batch.ts). */
function pageLoader(db: Kysely<Database>, part: Part, filmIds: string[]): DataLoader<string, PageOfSession> {
  let loaders = pageLoaders.get(db);
  if (!loaders) {
    loaders = new Map();
    pageLoaders.set(db, loaders);
  }
  const key = `${part}:${filmIds.join(',')}`;
  let loader = loaders.get(key);
  if (!loader) {
    loader = turnBatcher((hashes) => pagesOfSessions(db, hashes, part, filmIds), SESSIONS_PER_STATEMENT);
    if (loaders.size >= PAGE_LOADERS) loaders.clear();
    loaders.set(key, loader);
  }
  return loader;
}

async function pagesOfSessions(
  db: Kysely<Database>,
  hashes: readonly string[],
  part: Part,
  filmIds: string[],
): Promise<PageOfSession[]> {
  const rows = await latestRunsOfSessions(db, [...new Set(hashes)].join(','), part, filmIds);
  const byHash = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byHash.get(row.me_hash);
    if (list) list.push(row);
    else byHash.set(row.me_hash, [row]);
  }
  return hashes.map((hash) => pageOfSession(byHash.get(hash) ?? []));
}

/**
 * A session's rows of the page's history as its learner and progress: the session's columns on its
 * rows (PostgreSQL: on each; SQLite: on a row of their own), a run on each row with one (PostgreSQL:
 * a row of nulls beside the session when there are none). No rows: no such session.
 */
function pageOfSession(
  rows: {
    me_id: string | null;
    me_account: string | null;
    me_nickname: string | null;
    me_expires_at: string | null;
    id: unknown;
  }[],
): PageOfSession {
  const me = rows.find((r) => r.me_id !== null);
  const user = liveSessionUser(
    me && {
      id: me.me_id!,
      account: me.me_account!,
      nickname: me.me_nickname!,
      expires_at: me.me_expires_at!,
    },
  );
  if (!user) return null;
  const runs = rows.filter((r) => r.id !== null) as unknown as ProgressRow[];
  return { user, progress: filmRunsProgress(runs) };
}

function filmRunsProgress(rows: ProgressRow[]): Map<string, FilmRunsProgress> {
  const out = new Map<string, FilmRunsProgress>();
  for (const { run_count, best_ratio, latest_ratio, ...latest } of rows) {
    out.set(latest.film_id, {
      latest,
      count: Number(run_count),
      // Math.round is monotonic: the rounded best ratio is the best of the rounded percents.
      bestPercent: best_ratio == null ? null : Math.round(best_ratio * 100),
      latestPercent: latest_ratio == null ? null : Math.round(Number(latest_ratio) * 100),
      dubbedLines: latest.dubbed_lines,
      dubbingAverage: latest.dubbing_average,
    });
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
