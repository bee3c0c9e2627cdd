import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type {
  Localized,
  Part,
  QuestionResult,
  SaveQuestionRecordData,
  SaveQuestionRecordRequest,
} from '../../src/api/contract';
import type { Database, QuestionRecordsTable, QuestionsTable } from '../db/schema';
import type { AppError } from '../lib/app-error';
import { inputError } from '../lib/validate';
import { type Said, said } from '../lib/words';
import { newId, nowIso } from '../lib/ids';
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
 * another round trip away (docs/performance.md, "The API"). SQLite has no writes in CTEs and no
 * round trips: it keeps the transaction.
 */
const answersStatement = prepared(
  (
    db,
    newRunId: string,
    at: string,
    userId: string,
    filmId: string,
    part: Part,
    recordId: string,
    answers: string,
    results: string,
    score: number,
    maxScore: number,
    durationMs: number | null,
    ratio: number,
  ) =>
    db
      .with('started', () => startRunUnlessOpen(db, newRunId, userId, filmId, part, at))
      // Sees the same snapshot as 'started': the open run is joined exactly when none was started.
      .with('joined', () => joinOpenRun(db, userId, filmId, part, at))
      .with('run', (db) =>
        db
          .selectFrom('started')
          .select(['started.id', sql<number>`1`.as('created')])
          .unionAll(db.selectFrom('joined').select(['joined.id', sql<number>`0`.as('created')])),
      )
      .with('record', (db) => {
        const row = {
          id: recordId,
          user_id: userId,
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
        const row = { user_id: userId, part, film_id: filmId };
        return db
          .insertInto('film_progress')
          .columns([...columnsOf(row), 'runs', 'best_ratio'])
          .expression(
            db
              .selectFrom('run')
              .select((eb) => [...rowValues(eb, row), 'run.created as runs', eb.val(ratio).as('best_ratio')]),
          )
          .onConflict(addToProgress);
      })
      .selectFrom('run')
      .select('run.id'),
);

/** Stores a record and its run as saveQuestionRecord's transaction does, in one statement (PostgreSQL). */
async function storeAnswersInOneStatement(db: Kysely<Database>, r: NewRecord): Promise<string> {
  const [run] = await answersStatement(
    db,
    newId(),
    r.created_at,
    r.user_id,
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
  // As runForAnswers: no run to start or join (the latest vanished meanwhile) is an error.
  if (!run) throw new Error('no run for the answers');
  return run.id;
}

/** Validates, scores and stores a record in one transaction. */
export async function saveQuestionRecord(
  db: Kysely<Database>,
  userId: string,
  part: Part,
  input: SaveQuestionRecordRequest,
): Promise<SaveQuestionRecordData> {
  const questions = await filmQuestionsCached(db, input.filmId);
  const checked = checkAnswers(questions, input.answers);
  const { results, score, maxScore } = scoreAnswers(checked);
  const recordId = newId();
  const at = nowIso();
  const record = {
    id: recordId,
    user_id: userId,
    film_id: input.filmId,
    part,
    answers: JSON.stringify(checked.map((c) => ({ questionId: c.publicId, value: c.value }))),
    results: JSON.stringify(results),
    score,
    max_score: maxScore,
    duration_ms: input.durationMs ?? null,
    created_at: at,
  };
  const runId =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? await storeAnswersInOneStatement(db, record)
      : await db.transaction().execute(async (trx) => {
          const { runId, created } = await runForAnswers(trx, userId, input.filmId, part, at);
          await trx
            .insertInto('question_records')
            .values({ ...record, run_id: runId })
            .execute();
          await bumpProgress(trx, userId, part, input.filmId, created ? 1 : 0, answerRatio(score, maxScore));
          return runId;
        });
  return {
    recordId,
    runId,
    part,
    filmId: input.filmId,
    score,
    maxScore,
    percent: percentOf(score, maxScore),
    results,
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
