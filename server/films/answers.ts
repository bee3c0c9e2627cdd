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
import { prepared } from '../db/prepared';
import { columnsOf, rowValues } from '../db/row-values';
import {
  addToProgress,
  answerRatio,
  bumpProgress,
  joinOpenRun,
  runForAnswers,
  startRunUnlessOpen,
} from '../takes/runs';
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

/**
 * What saveQuestionRecord's transaction does (runForAnswers, the record, bumpProgress) as one
 * PostgreSQL statement, its writes in data-modifying CTEs: one round trip instead of five (begin,
 * three writes, commit), and film_progress's row lock held for one statement, not until a commit
 * another round trip away (docs/performance.md, "The API"). The statement checks the session itself
 * (`me`: the token's learner while the session lasts): one round trip per save with the film cached;
 * with no such session it writes nothing and returns no row. SQLite has no writes in CTEs and no
 * round trips: it reads the session just before its transaction.
 */
const answersStatement = prepared(
  (
    db,
    tokenHash: string,
    newRunId: string,
    at: string,
    filmId: string,
    part: Part,
    recordId: string,
    answers: string,
    results: string,
    score: number,
    maxScore: number,
    durationMs: number | null,
    ratio: number,
  ) => {
    // No row in `me` makes it null: nothing is started, joined, recorded or counted.
    const learner = sql<string>`(select ${sql.ref('me.id')} from ${sql.table('me')})`;
    return (
      db
        .with('me', (db) => sessionUserQuery(db, tokenHash).where('sessions.expires_at', '>', at))
        .with('started', () => startRunUnlessOpen(db, newRunId, learner, filmId, part, at))
        // Sees the same snapshot as 'started': the open run is joined exactly when none was started.
        .with('joined', () => joinOpenRun(db, learner, filmId, part, at))
        .with('run', (db) =>
          db
            .selectFrom('started')
            .select(['started.id', sql<number>`1`.as('created')])
            .unionAll(db.selectFrom('joined').select(['joined.id', sql<number>`0`.as('created')])),
        )
        .with('record', (db) => {
          const row = {
            id: recordId,
            user_id: learner,
            film_id: filmId,
            part,
            answers,
            results,
            score,
            max_score: maxScore,
            duration_ms: durationMs,
            created_at: at,
          };
          return db
            .insertInto('question_records')
            .columns([...columnsOf(row), 'run_id'])
            .expression(db.selectFrom('run').select((eb) => [...rowValues(eb, row), 'run.id as run_id']));
        })
        .with('progress', (db) => {
          const row = { user_id: learner, part, film_id: filmId };
          return db
            .insertInto('film_progress')
            .columns([...columnsOf(row), 'runs', 'best_ratio'])
            .expression(
              db
                .selectFrom('run')
                .select((eb) => [
                  ...rowValues(eb, row),
                  'run.created as runs',
                  eb.val(ratio).as('best_ratio'),
                ]),
            )
            .onConflict(addToProgress);
        })
        .selectFrom('me')
        .leftJoin('run', (join) => join.onTrue())
        .select(['me.id', 'me.account', 'me.nickname', 'run.id as run_id'])
    );
  },
);

/**
 * Stores a record and its run as saveQuestionRecord's transaction does, in one statement that checks
 * the session too (PostgreSQL); null when the token has no live session.
 */
async function storeAnswersOfSession(
  db: Kysely<Database>,
  token: string,
  r: Omit<NewRecord, 'user_id'>,
): Promise<{ user: User; runId: string } | null> {
  const [row] = await answersStatement(
    db,
    sha256Hex(token),
    newId(),
    r.created_at,
    r.film_id,
    r.part,
    r.id,
    r.answers,
    r.results,
    r.score,
    r.max_score,
    r.duration_ms,
    answerRatio(r.score, r.max_score),
  );
  // `me` kept the session only if it was live at the save's time: the row's learner is the one the
  // writes were made for (a second expiry check here could refuse a save already stored).
  if (!row) return null;
  const user = { id: row.id, account: row.account, nickname: row.nickname };
  // As runForAnswers: no run to start or join (the latest vanished meanwhile) is an error.
  if (!row.run_id) throw new Error('no run for the answers');
  return { user, runId: row.run_id };
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
    stored = await storeAnswersOfSession(db, token, record);
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
