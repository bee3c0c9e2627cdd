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
} from '../../src/api/contract';
import type { Database, FilmsTable, QuestionsTable } from '../db/schema';
import { parseJson } from '../lib/json';
import { formatMmSs } from '../lib/time-format';
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

async function countsByFilm(
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

/** The learner's progress on each film: best answer score in this part, lines dubbed, last activity. */
async function progressByFilm(
  db: Kysely<Database>,
  userId: string,
  part: Part,
  filmIds: string[],
): Promise<Map<string, Omit<FilmProgress, 'totalLines'>>> {
  const out = new Map<string, Omit<FilmProgress, 'totalLines'>>();
  if (filmIds.length === 0) return out;
  const records = await db
    .selectFrom('question_records')
    .select(['film_id', 'score', 'max_score', 'created_at'])
    .where('user_id', '=', userId)
    .where('part', '=', part)
    .where('film_id', 'in', filmIds)
    .execute();
  const dubbed = await db
    .selectFrom('takes')
    .select(['film_id', 'subtitle_id', 'created_at'])
    .where('user_id', '=', userId)
    .where('film_id', 'in', filmIds)
    .execute();
  for (const id of filmIds)
    out.set(id, { answered: false, bestScore: null, dubbedLines: 0, lastActivityAt: null });
  const later = (a: string | null, b: string) => (a && a > b ? a : b);
  for (const r of records) {
    const p = out.get(r.film_id)!;
    const percent = r.max_score > 0 ? Math.round((r.score / r.max_score) * 100) : 0;
    p.answered = true;
    p.bestScore = Math.max(p.bestScore ?? 0, percent);
    p.lastActivityAt = later(p.lastActivityAt, r.created_at);
  }
  const lines = new Map<string, Set<string>>();
  for (const t of dubbed) {
    const set = lines.get(t.film_id) ?? new Set<string>();
    set.add(t.subtitle_id);
    lines.set(t.film_id, set);
    const p = out.get(t.film_id)!;
    p.lastActivityAt = later(p.lastActivityAt, t.created_at);
  }
  for (const [filmId, set] of lines) out.get(filmId)!.dubbedLines = set.size;
  return out;
}

export async function listFilms(
  deps: QueryDeps,
  userId: string,
  part: Part,
  page: number,
  pageSize: number,
): Promise<FilmList> {
  const { db, storage } = deps;
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
  const [lineCounts, questionCounts, progress] = await Promise.all([
    countsByFilm(db, 'subtitles', ids),
    countsByFilm(db, 'questions', ids),
    progressByFilm(db, userId, part, ids),
  ]);
  const list = films.map((f) => {
    const lineCount = lineCounts.get(f.id) ?? 0;
    return toSummary(storage, f, lineCount, questionCounts.get(f.id) ?? 0, {
      ...progress.get(f.id)!,
      totalLines: lineCount,
    });
  });
  return { list, total: Number(totalRow?.n ?? 0), page, pageSize };
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
    db.selectFrom('subtitles').selectAll().where('film_id', '=', film.id).orderBy('idx').execute(),
    db.selectFrom('questions').selectAll().where('film_id', '=', film.id).orderBy('idx').execute(),
    progressByFilm(db, userId, part, [film.id]),
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
    })),
    questions: questions.map(toPublicQuestion),
  };
}
