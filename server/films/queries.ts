import type { Kysely } from 'kysely';
import type {
  Emotion,
  FilmDetail,
  FilmList,
  FilmProgress,
  FilmSummary,
  Localized,
  Part,
  Question,
  User,
} from '../../src/api/contract';
import type { Database, FilmsTable, QuestionsTable, SubtitlesTable } from '../db/schema';
import { parseJson } from '../lib/json';
import { cached, forget } from './catalogue-cache';
import { formatMmSs } from '../lib/time-format';
import { type FilmRunsProgress, runsByFilm, runsByFilmOfSession } from '../takes/runs';
import type { MediaStorage } from '../storage/media-storage';

export interface QueryDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
}

/** Films offered in a part; parts is JSON text like ["prpo","prpt"], matched portably with LIKE. */
const inPart = (part: Part) => `%"${part}"%`;

export async function findFilm(db: Kysely<Database>, id: string, part: Part): Promise<FilmsTable | null> {
  const row = await db
    .selectFrom('films')
    .selectAll()
    .where('id', '=', id)
    .where('parts', 'like', inPart(part))
    .executeTakeFirst();
  return row ?? null;
}

/**
 * findFilm through the catalogue cache (server/films/catalogue-cache.ts) for the hot film calls; an
 * unknown film is not cached, so a film imported a moment ago is found at once.
 */
export async function findFilmCached(
  db: Kysely<Database>,
  id: string,
  part: Part,
): Promise<FilmsTable | null> {
  const key = `find:${part}:${id}`;
  const film = await cached(db, key, () => findFilm(db, id, part));
  if (!film) forget(db, key);
  return film;
}

/** A film's lines through the catalogue cache (one entry per film version: the detail, the pitch guide). */
export const filmLinesCached = (db: Kysely<Database>, film: FilmsTable): Promise<SubtitlesTable[]> =>
  cached(db, `lines:${film.id}:${film.updated_at}`, () => filmLines(db, film.id));

/** A film's questions through the catalogue cache (the answer key included: server use only). */
export const filmQuestionsCached = (db: Kysely<Database>, filmId: string): Promise<QuestionsTable[]> =>
  cached(db, `questions:${filmId}`, () => filmQuestions(db, filmId));

export async function filmExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom('films').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Titles of some films (zh and en), by id. */
export async function filmTitles(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, Pick<FilmsTable, 'title' | 'title_en'>>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('films')
    .select(['id', 'title', 'title_en'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** A film row by id, whatever its parts, through the catalogue cache (a run's report names its film). */
export async function filmByIdCached(db: Kysely<Database>, id: string): Promise<FilmsTable | null> {
  const key = `film:${id}`;
  const film = await cached(
    db,
    key,
    async () => (await db.selectFrom('films').selectAll().where('id', '=', id).executeTakeFirst()) ?? null,
  );
  if (!film) forget(db, key);
  return film;
}

/** Per film: its titles and line count, as run summaries show them, through the catalogue cache. */
export function filmFactsCached(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, { title: string; title_en: string; lineCount: number }>> {
  const sorted = [...new Set(ids)].sort();
  return cached(db, `facts:${sorted.join('\u0000')}`, async () => {
    const [titles, lines] = await Promise.all([
      filmTitles(db, sorted),
      countsByFilm(db, 'subtitles', sorted),
    ]);
    return new Map(
      [...titles].map(([id, t]) => [
        id,
        { title: t.title, title_en: t.title_en, lineCount: lines.get(id) ?? 0 },
      ]),
    );
  });
}

/** A film's subtitle lines in order. */
export function filmLines(db: Kysely<Database>, filmId: string): Promise<SubtitlesTable[]> {
  return db.selectFrom('subtitles').selectAll().where('film_id', '=', filmId).orderBy('idx').execute();
}

/** A film's questions in order (with the answer key: server use only). */
export function filmQuestions(db: Kysely<Database>, filmId: string): Promise<QuestionsTable[]> {
  return db.selectFrom('questions').selectAll().where('film_id', '=', filmId).orderBy('idx').execute();
}

/** One line of one film, or null. */
export async function findLine(
  db: Kysely<Database>,
  filmId: string,
  subtitleId: string,
): Promise<SubtitlesTable | null> {
  const row = await db
    .selectFrom('subtitles')
    .selectAll()
    .where('id', '=', subtitleId)
    .where('film_id', '=', filmId)
    .executeTakeFirst();
  return row ?? null;
}

export async function countsByFilm(
  db: Kysely<Database>,
  table: 'subtitles' | 'questions',
  filmIds: string[],
): Promise<Map<string, number>> {
  if (filmIds.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['film_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('film_id', 'in', filmIds)
    .groupBy('film_id')
    .execute();
  return new Map(rows.map((r) => [r.film_id, Number(r.n)]));
}

/**
 * The learner's progress on each film, from their latest run (docs/api.md, "Runs"): its answers and
 * dubbed lines; the best answer score over every run. `byFilm` is runsByFilm's answer.
 */
function progressByFilm(
  byFilm: Map<string, FilmRunsProgress>,
  filmIds: string[],
): Map<string, Omit<FilmProgress, 'totalLines'>> {
  const out = new Map<string, Omit<FilmProgress, 'totalLines'>>();
  for (const id of filmIds) {
    const runs = byFilm.get(id);
    out.set(id, {
      answered: runs?.latestPercent != null,
      bestScore: runs?.bestPercent ?? null,
      dubbedLines: runs?.dubbedLines ?? 0,
      lastActivityAt: runs?.latest.updated_at ?? null,
      runId: runs?.latest.id ?? null,
      runs: runs?.count ?? 0,
    });
  }
  return out;
}

/**
 * A page of a part's films for the learner of a session token, with that learner; null when the
 * token is unknown or expired. The session is checked with the page's history
 * (runsByFilmOfSession).
 */
export async function listFilms(
  deps: QueryDeps,
  token: string,
  part: Part,
  page: number,
  pageSize: number,
): Promise<{ user: User; list: FilmList } | null> {
  const { db, storage } = deps;
  const { total, films, lineCounts, questionCounts } = await cached(
    db,
    `list:${part}:${page}:${pageSize}`,
    () => cataloguePage(db, part, page, pageSize),
  );
  const filmIds = films.map((f) => f.id);
  const session = await runsByFilmOfSession(db, token, part, filmIds);
  if (!session) return null;
  const progress = progressByFilm(session.progress, filmIds);
  const list = films.map((f) => {
    const lineCount = lineCounts.get(f.id) ?? 0;
    return toSummary(storage, f, lineCount, questionCounts.get(f.id) ?? 0, {
      ...progress.get(f.id)!,
      totalLines: lineCount,
    });
  });
  return { user: session.user, list: { list, total, page, pageSize } };
}

/** A page of a part's films with their line and question counts: the same for every learner. */
async function cataloguePage(db: Kysely<Database>, part: Part, page: number, pageSize: number) {
  const totalRow = await db
    .selectFrom('films')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('parts', 'like', inPart(part))
    .executeTakeFirst();
  const films = await db
    .selectFrom('films')
    .selectAll()
    .where('parts', 'like', inPart(part))
    .orderBy('created_at')
    .orderBy('id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const ids = films.map((f) => f.id);
  const [lineCounts, questionCounts] = await Promise.all([
    countsByFilm(db, 'subtitles', ids),
    countsByFilm(db, 'questions', ids),
  ]);
  return { total: Number(totalRow?.n ?? 0), films, lineCounts, questionCounts };
}

function toSummary(
  storage: MediaStorage,
  f: FilmsTable,
  lineCount: number,
  questionCount: number,
  progress: FilmProgress,
): FilmSummary {
  return {
    id: f.id,
    title: f.title,
    titleEn: f.title_en,
    poster: storage.url(f.poster_key),
    durationMs: f.duration_ms,
    parts: parseJson<Part[]>(f.parts, []),
    lineCount,
    questionCount,
    progress,
    language: f.language,
  };
}

/** A question's id as the learner sees it: the manifest's own id (rows are stored as `<film>-<id>`). */
export const publicQuestionId = (row: Pick<QuestionsTable, 'id' | 'film_id'>): string =>
  row.id.startsWith(`${row.film_id}-`) ? row.id.slice(row.film_id.length + 1) : row.id;

/** Without the answer key or explanation: those come back only after an answer is saved. */
export function toPublicQuestion(row: QuestionsTable): Question {
  return {
    id: publicQuestionId(row),
    kind: row.kind,
    prompt: parseJson<Localized>(row.prompt, { zh: '', en: '' }),
    options: parseJson<Question['options']>(row.options, []),
    required: row.required === 1,
    points: row.points,
  };
}

export async function filmDetail(
  deps: QueryDeps,
  userId: string,
  film: FilmsTable,
  part: Part,
): Promise<FilmDetail> {
  const { db, storage } = deps;
  const [subtitles, questions, progress] = await Promise.all([
    filmLinesCached(db, film),
    filmQuestionsCached(db, film.id),
    runsByFilm(db, userId, part, [film.id]).then((byFilm) => progressByFilm(byFilm, [film.id])),
  ]);
  const summary = toSummary(storage, film, subtitles.length, questions.length, {
    ...progress.get(film.id)!,
    totalLines: subtitles.length,
  });
  return {
    ...summary,
    synopsis: parseJson<Localized>(film.synopsis, { zh: '', en: '' }),
    video: storage.url(film.video_key),
    subtitlesTrack: storage.url(film.track_key),
    background: film.background_key ? storage.url(film.background_key) : null,
    roles: parseJson<FilmDetail['roles']>(film.roles, []),
    subtitlesList: subtitles.map((s) => ({
      id: s.id,
      index: s.idx,
      startTime: formatMmSs(s.start_ms),
      endTime: formatMmSs(s.end_ms),
      startMs: s.start_ms,
      endMs: s.end_ms,
      text: s.text,
      translation: parseJson<Localized>(s.translation, { zh: '', en: '' }),
      speaker: s.speaker,
      targetEmotion: (s.target_emotion as Emotion | null) ?? null,
      referenceAudio: storage.url(s.reference_audio_key),
      actorPitch: null,
    })),
    questions: questions.map(toPublicQuestion),
  };
}
