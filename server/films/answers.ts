import type DataLoader from 'dataloader';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type {
  Localized,
  Part,
  QuestionResult,
  SaveQuestionRecordData,
  SaveQuestionRecordRequest,
  User,
} from '../../src/api/contract';
import type { Database, QuestionRecordsTable, QuestionsTable } from '../db/schema';
import type { AppError } from '../lib/app-error';
import { inputError } from '../lib/validate';
import { type Said, said } from '../lib/words';
import { newId, nowIso, sha256Hex } from '../lib/ids';
import { findSessionUser, sessionUserQuery } from '../auth/sessions';
import { parseJson } from '../lib/json';
import { turnBatcher } from '../db/batch';
import { prepared } from '../db/prepared';
import { addToProgress, answerRatio, bumpProgress, openRunId, runForAnswers } from '../takes/runs';
import { filmQuestionsCached, publicQuestionId } from './queries';

/** The 400 of one wrong answer, worded like a schema's refusal (server/lib/validate.ts). */
const fieldError = (field: string, problem: Said): AppError => inputError([{ path: field, problem }]);

type AnswerValue = SaveQuestionRecordRequest['answers'][number]['value'];

interface Checked {
  question: QuestionsTable;
  publicId: string;
  /** Normalised: option ids for choice questions, trimmed text for open ones; null when unanswered. */
  value: string | string[] | null;
}

/**
 * Checks every answer against the film's questions. Each problem names the field to fix:
 * `answers.<i>.questionId` for an unknown or repeated question, `answers.<i>.value` for a wrong
 * option, `answers.<questionId>` for a missing required answer.
 */
export function checkAnswers(
  questions: QuestionsTable[],
  answers: SaveQuestionRecordRequest['answers'],
): Checked[] {
  const byId = new Map(questions.map((q) => [publicQuestionId(q), q]));
  const given = new Map<string, AnswerValue>();
  answers.forEach((a, i) => {
    if (!byId.has(a.questionId))
      throw fieldError(`answers.${i}.questionId`, said('answers.unknownQuestion', { id: a.questionId }));
    if (given.has(a.questionId))
      throw fieldError(`answers.${i}.questionId`, said('answers.answeredTwice', { id: a.questionId }));
    given.set(a.questionId, a.value);
  });
  return questions.map((q) => {
    const publicId = publicQuestionId(q);
    const index = answers.findIndex((a) => a.questionId === publicId);
    const field = `answers.${index}.value`;
    const raw = given.get(publicId);
    const options = new Set(parseJson<Array<{ id: string }>>(q.options, []).map((o) => o.id));
    let value: string | string[] | null = null;
    if (raw !== undefined) {
      if (q.kind === 'text') {
        if (typeof raw !== 'string') throw fieldError(field, said('answers.textExpected'));
        value = raw.trim() || null;
      } else {
        const ids = typeof raw === 'string' ? (raw === '' ? [] : [raw]) : raw;
        if (q.kind === 'single' && ids.length > 1) throw fieldError(field, said('answers.oneOption'));
        if (new Set(ids).size !== ids.length) throw fieldError(field, said('answers.duplicateOption'));
        const bad = ids.find((id) => !options.has(id));
        if (bad !== undefined) throw fieldError(field, said('answers.noSuchOption', { id: bad }));
        value = ids.length === 0 ? null : q.kind === 'single' ? ids[0] : ids;
      }
    }
    if (value === null && q.required === 1) {
      throw fieldError(`answers.${publicId}`, said('answers.required', { index: String(q.idx) }));
    }
    return { question: q, publicId, value };
  });
}

/** Scores objective questions: full points for exactly the right option set, else 0. Open text is not scored. */
export function scoreAnswers(checked: Checked[]): {
  results: QuestionResult[];
  score: number;
  maxScore: number;
} {
  let score = 0;
  let maxScore = 0;
  const results = checked.map(({ question: q, publicId, value }) => {
    const explanation = parseJson<Localized>(q.explanation, { zh: '', en: '' });
    if (q.kind === 'text') {
      return {
        questionId: publicId,
        correct: null,
        score: 0,
        points: q.points,
        answer: value,
        correctAnswer: null,
        explanation,
      };
    }
    const key = parseJson<string[]>(q.answer, []);
    const chosen = value === null ? [] : Array.isArray(value) ? value : [value];
    const correct = chosen.length === key.length && key.every((k) => chosen.includes(k));
    const got = correct ? q.points : 0;
    score += got;
    maxScore += q.points;
    return {
      questionId: publicId,
      correct,
      score: got,
      points: q.points,
      answer: value,
      correctAnswer: key,
      explanation,
    };
  });
  return { results, score, maxScore };
}

export const percentOf = (score: number, maxScore: number): number =>
  maxScore > 0 ? Math.round((score / maxScore) * 100) : 0;

type NewRecord = Omit<QuestionRecordsTable, 'run_id'>;

/** One save of a batch (saveBatch), as the batch statement's rows carry it. */
interface BatchedSave {
  /** Its place in the batch. */
  ord: number;
  /** SHA-256 of the session token, in hex. */
  hash: string;
  /** The id of the run it starts if it starts one. */
  new_run_id: string;
  at: string;
  film_id: string;
  part: Part;
  record_id: string;
  answers: string;
  results: string;
  score: number;
  max_score: number;
  duration_ms: number | null;
  ratio: number;
}

/** The SQL type of each of a batched save's columns, as json_to_recordset reads them. */
const BATCH_TYPES: Record<keyof BatchedSave, string> = {
  ord: 'int',
  hash: 'text',
  new_run_id: 'text',
  at: 'text',
  film_id: 'text',
  part: 'text',
  record_id: 'text',
  answers: 'text',
  results: 'text',
  score: 'int',
  max_score: 'int',
  duration_ms: 'int',
  ratio: 'double precision',
};
const BATCH_COLUMNS = Object.entries(BATCH_TYPES)
  .map(([column, type]) => `${column} ${type}`)
  .join(', ');

/**
 * What saveQuestionRecord's transaction does (runForAnswers, the record, bumpProgress) for a batch of
 * saves, as one PostgreSQL statement whose writes are data-modifying CTEs: one round trip and one
 * commit for the batch, and each film_progress row locked once (docs/performance.md, "The PostgreSQL
 * list and save now").
 * `saves` is the batch as JSON, one parameter whatever its size, so the statement is prepared once.
 * Each save checks its session itself (`me`: the token's learner while the session lasts at the
 * save's time); a save with no such session writes nothing and has no row. The saves of one
 * learner's film in a batch are taken in order, as one after another would be: the first joins the
 * open run or starts one, each later one starts a run (the run before it has answers now), and the
 * film's progress row adds them all at once. SQLite has no writes in CTEs and no round trips: it
 * reads the session just before its own transaction per save.
 */
const batchStatement = prepared((db, saves: string) => {
  const me = sql.ref<string>('me.user_id');
  const film = sql.ref<string>('me.film_id');
  const part = sql.ref<Part>('me.part');
  return (
    db
      .with('me', (q) =>
        q
          .selectFrom(
            sql<BatchedSave>`json_to_recordset(${saves}::json)`.as<'i'>(sql`i(${sql.raw(BATCH_COLUMNS)})`),
          )
          .innerJoinLateral(
            sessionUserQuery(db, sql.ref<string>('i.hash'))
              .where('sessions.expires_at', '>', sql.ref<string>('i.at'))
              .as('s'),
            (join) => join.onTrue(),
          )
          .selectAll('i')
          .select([
            's.id as user_id',
            's.account',
            's.nickname',
            sql<number>`row_number() over (partition by s.id, i.part, i.film_id order by i.at, i.ord)`.as(
              'turn',
            ),
          ]),
      )
      // The run the first save of a learner's film joins: the newest run while it has no answers.
      .with('open', (q) =>
        q
          .selectFrom('me')
          .innerJoinLateral(openRunId(db, me, film, part).as('o'), (join) => join.onTrue())
          .where('me.turn', '=', 1)
          .select(['me.ord', 'me.at', 'o.id']),
      )
      // Sees the same snapshot as 'open': a save starts a run exactly when it has none to join.
      .with('started', (db) =>
        db
          .insertInto('runs')
          .columns(['id', 'user_id', 'film_id', 'part', 'started_at', 'updated_at'])
          .expression(
            db
              .selectFrom('me')
              .select([
                'me.new_run_id',
                'me.user_id',
                'me.film_id',
                'me.part',
                'me.at',
                'me.at as updated_at',
              ])
              .where(({ not, exists, selectFrom }) =>
                not(exists(selectFrom('open').select('open.ord').whereRef('open.ord', '=', 'me.ord'))),
              ),
          )
          .returning('id'),
      )
      .with('joined', (db) =>
        db
          .updateTable('runs')
          .from('open')
          .set((eb) => ({
            updated_at: eb
              .case()
              .when('runs.updated_at', '<', eb.ref('open.at'))
              .then(eb.ref('open.at'))
              .else(eb.ref('runs.updated_at'))
              .end(),
          }))
          .whereRef('runs.id', '=', 'open.id')
          .returning('runs.id'),
      )
      .with('run', (db) =>
        db
          .selectFrom('me')
          .innerJoin('started', 'started.id', 'me.new_run_id')
          .select(['me.ord', 'started.id', sql<number>`1`.as('created')])
          .unionAll(
            db
              .selectFrom('open')
              .innerJoin('joined', 'joined.id', 'open.id')
              .select(['open.ord', 'joined.id', sql<number>`0`.as('created')]),
          ),
      )
      .with('record', (db) =>
        db
          .insertInto('question_records')
          .columns([
            'id',
            'user_id',
            'film_id',
            'part',
            'answers',
            'results',
            'score',
            'max_score',
            'duration_ms',
            'created_at',
            'run_id',
          ])
          .expression(
            db
              .selectFrom('me')
              .innerJoin('run', 'run.ord', 'me.ord')
              .select([
                'me.record_id',
                'me.user_id',
                'me.film_id',
                'me.part',
                'me.answers',
                'me.results',
                'me.score',
                'me.max_score',
                'me.duration_ms',
                'me.at',
                'run.id',
              ]),
          ),
      )
      // Rows in key order: two batches that share learners' films lock their rows in the same order,
      // so they wait for each other instead of deadlocking.
      .with('progress', (db) =>
        db
          .insertInto('film_progress')
          .columns(['user_id', 'part', 'film_id', 'runs', 'best_ratio'])
          .expression(
            db
              .selectFrom('me')
              .innerJoin('run', 'run.ord', 'me.ord')
              .groupBy(['me.user_id', 'me.part', 'me.film_id'])
              .select((eb) => [
                'me.user_id',
                'me.part',
                'me.film_id',
                sql<number>`cast(sum(${eb.ref('run.created')}) as integer)`.as('runs'),
                eb.fn.max('me.ratio').as('best_ratio'),
              ])
              .orderBy(['me.user_id', 'me.part', 'me.film_id']),
          )
          .onConflict(addToProgress),
      )
      .selectFrom('me')
      .leftJoin('run', 'run.ord', 'me.ord')
      .select(['me.ord', 'me.user_id as id', 'me.account', 'me.nickname', 'run.id as run_id'])
  );
});

/** A save for the learner of a session token, as saveBatch takes it. */
type SaveOfSession = { token: string; record: Omit<NewRecord, 'user_id'> };

/** Saves per statement at most, so that one statement stays a few milliseconds long. */
const SAVES_PER_STATEMENT = 64;
const saveLoaders = new WeakMap<Kysely<Database>, DataLoader<SaveOfSession, StoredSave | null>>();
type StoredSave = { user: User; runId: string };

/** The saves asked for in one turn of the event loop, stored by one statement (server/db/batch.ts). */
function saveLoader(db: Kysely<Database>): DataLoader<SaveOfSession, StoredSave | null> {
  let loader = saveLoaders.get(db);
  if (!loader) {
    loader = turnBatcher((saves) => saveBatch(db, saves), SAVES_PER_STATEMENT);
    saveLoaders.set(db, loader);
  }
  return loader;
}

/**
 * Stores a batch of records and their runs (batchStatement): per save, its learner and run, or null
 * when its token has no live session. When the statement fails, each save is tried alone, so one
 * save's fault fails that save only.
 */
async function saveBatch(
  db: Kysely<Database>,
  saves: readonly SaveOfSession[],
): Promise<(StoredSave | null | Error)[]> {
  const rows = saves.map(
    ({ token, record: r }, ord): BatchedSave => ({
      ord,
      hash: sha256Hex(token),
      new_run_id: newId(),
      at: r.created_at,
      film_id: r.film_id,
      part: r.part,
      record_id: r.id,
      answers: r.answers,
      results: r.results,
      score: r.score,
      max_score: r.max_score,
      duration_ms: r.duration_ms,
      ratio: answerRatio(r.score, r.max_score),
    }),
  );
  let stored: Awaited<ReturnType<typeof batchStatement>>;
  try {
    stored = await batchStatement(db, JSON.stringify(rows));
  } catch (err) {
    if (saves.length === 1) throw err;
    return Promise.all(
      saves.map((save) =>
        saveBatch(db, [save]).then(
          ([one]) => one,
          (e: Error) => e,
        ),
      ),
    );
  }
  const byOrd = new Map(stored.map((row) => [row.ord, row]));
  return saves.map((_, ord) => {
    // `me` kept the session only if it was live at the save's time: the row's learner is the one the
    // writes were made for (a second expiry check here could refuse a save already stored).
    const row = byOrd.get(ord);
    if (!row) return null;
    // As runForAnswers: no run to start or join (the latest vanished meanwhile) is an error.
    if (!row.run_id) return new Error('no run for the answers');
    return { user: { id: row.id, account: row.account, nickname: row.nickname }, runId: row.run_id };
  });
}

/** Stores a record and its run in one transaction (SQLite). */
function storeAnswers(db: Kysely<Database>, record: NewRecord, ratio: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { runId, created } = await runForAnswers(
      trx,
      record.user_id,
      record.film_id,
      record.part,
      record.created_at,
    );
    await trx
      .insertInto('question_records')
      .values({ ...record, run_id: runId })
      .execute();
    await bumpProgress(trx, record.user_id, record.part, record.film_id, created ? 1 : 0, ratio);
    return runId;
  });
}

/**
 * Validates, scores and stores a record for the learner of a session token, in one transaction;
 * null when the token has no live session (nothing is stored). The answers are checked before the
 * session: on PostgreSQL the statement that stores the record checks the session too.
 */
export async function saveQuestionRecord(
  db: Kysely<Database>,
  token: string,
  part: Part,
  input: SaveQuestionRecordRequest,
): Promise<{ user: User; saved: SaveQuestionRecordData } | null> {
  const questions = await filmQuestionsCached(db, input.filmId);
  const checked = checkAnswers(questions, input.answers);
  const { results, score, maxScore } = scoreAnswers(checked);
  const recordId = newId();
  const record = {
    id: recordId,
    film_id: input.filmId,
    part,
    answers: JSON.stringify(checked.map((c) => ({ questionId: c.publicId, value: c.value }))),
    results: JSON.stringify(results),
    score,
    max_score: maxScore,
    duration_ms: input.durationMs ?? null,
    created_at: nowIso(),
  };
  let stored: { user: User; runId: string } | null;
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    stored = await saveLoader(db).load({ token, record });
  else {
    const user = await findSessionUser(db, token);
    stored = user && {
      user,
      runId: await storeAnswers(db, { ...record, user_id: user.id }, answerRatio(score, maxScore)),
    };
  }
  if (!stored) return null;
  return {
    user: stored.user,
    saved: {
      recordId,
      runId: stored.runId,
      part,
      filmId: input.filmId,
      score,
      maxScore,
      percent: percentOf(score, maxScore),
      results,
    },
  };
}

/** A stored record as save_question_record answered it (the result screen reads this after a reload). */
export function recordData(record: QuestionRecordsTable): SaveQuestionRecordData {
  return {
    recordId: record.id,
    runId: record.run_id ?? undefined,
    part: record.part,
    filmId: record.film_id,
    score: record.score,
    maxScore: record.max_score,
    percent: percentOf(record.score, record.max_score),
    results: parseJson<QuestionResult[]>(record.results, []),
  };
}
