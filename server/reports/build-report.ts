import type { Kysely } from 'kysely';
import type {
  Emotion,
  Localized,
  Part,
  QuestionKind,
  QuestionResult,
  Report,
  ReportLine,
} from '../../src/api/contract';
import type { Database, QuestionRecordsTable } from '../db/schema';
import { parseJson } from '../lib/json';
import type { MediaStorage } from '../storage/media-storage';
import { buildFeedback } from './feedback';
import { attemptSummary, type ParsedTake, parseTake, targetOf } from './take-summary';

export interface ReportDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
}

/** A take's audio URL; a key the storage refuses yields '' rather than failing the whole report. */
function mediaUrl(storage: MediaStorage, key: string): string {
  try {
    return storage.url(key);
  } catch {
    return '';
  }
}

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/** The actor's emotion from the AI service's cached reference analysis, when it carries one. */
function actorOf(analysisJson: string | undefined): ReportLine['actor'] {
  const a = parseJson<{ emotion?: { detected?: Emotion; arousal?: number; valence?: number } } | null>(
    analysisJson,
    null,
  );
  const e = a?.emotion;
  if (!e?.detected || typeof e.arousal !== 'number' || typeof e.valence !== 'number') return null;
  return { detected: e.detected, arousal: e.arousal, valence: e.valence };
}

/**
 * Dubbing per line for one learner and film: first = earliest take with attempt 1,
 * second = latest take with attempt 2.
 */
async function dubbingSection(deps: ReportDeps, userId: string, filmId: string): Promise<Report['dubbing']> {
  const { db, storage } = deps;
  const lines = await db
    .selectFrom('subtitles')
    .selectAll()
    .where('film_id', '=', filmId)
    .orderBy('idx')
    .execute();
  const takes = await db
    .selectFrom('takes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('film_id', '=', filmId)
    .orderBy('created_at')
    .execute();
  const refs = lines.length
    ? await db
        .selectFrom('reference_analyses')
        .select(['subtitle_id', 'analysis'])
        .where(
          'subtitle_id',
          'in',
          lines.map((l) => l.id),
        )
        .execute()
    : [];
  const refBySub = new Map(refs.map((r) => [r.subtitle_id, r.analysis]));
  const first = new Map<string, ParsedTake>();
  const second = new Map<string, ParsedTake>();
  for (const row of takes) {
    const take = parseTake(row);
    if (!take) continue;
    if (row.attempt === 1 && !first.has(row.subtitle_id)) first.set(row.subtitle_id, take);
    if (row.attempt === 2) second.set(row.subtitle_id, take); // ordered by time: the last one wins
  }

  const improvements: number[] = [];
  const latestOverall: number[] = [];
  let matched = 0;
  let withTarget = 0;
  const reportLines: ReportLine[] = lines.map((l) => {
    const f = first.get(l.id) ?? null;
    const s = second.get(l.id) ?? null;
    if (f && s) improvements.push(s.score.overall - f.score.overall);
    const latest = s ?? f;
    if (latest) {
      latestOverall.push(latest.score.overall);
      const target = targetOf(latest, l.target_emotion);
      if (target) {
        withTarget += 1;
        if (latest.score.emotion.detected === target) matched += 1;
      }
    }
    return {
      subtitlesId: l.id,
      index: l.idx,
      text: l.text,
      translation: parseJson<Localized>(l.translation, { zh: '', en: '' }),
      speaker: l.speaker,
      targetEmotion: (l.target_emotion as Emotion | null) ?? null,
      actor: actorOf(refBySub.get(l.id)),
      first: f ? attemptSummary(f, mediaUrl(storage, f.row.audio_key)) : null,
      second: s ? attemptSummary(s, mediaUrl(storage, s.row.audio_key)) : null,
    };
  });
  return {
    lines: reportLines,
    scoredLines: latestOverall.length,
    average: round1(mean(latestOverall)),
    improvement: round1(mean(improvements)),
    emotionMatchRate: withTarget ? Math.round((matched / withTarget) * 100) / 100 : null,
  };
}

/** Builds the report of one question record (plus, for part two, the learner's takes on that film). */
export async function buildReport(deps: ReportDeps, record: QuestionRecordsTable): Promise<Report> {
  const { db, storage } = deps;
  const [film, learner, questions] = await Promise.all([
    db.selectFrom('films').selectAll().where('id', '=', record.film_id).executeTakeFirst(),
    db.selectFrom('users').select('nickname').where('id', '=', record.user_id).executeTakeFirst(),
    db.selectFrom('questions').selectAll().where('film_id', '=', record.film_id).orderBy('idx').execute(),
  ]);
  const byPublicId = new Map(questions.map((q) => [q.id.slice(q.film_id.length + 1), q]));
  const results = parseJson<QuestionResult[]>(record.results, []);
  const items = results.map((r) => {
    const q = byPublicId.get(r.questionId);
    return {
      ...r,
      prompt: q ? parseJson<Localized>(q.prompt, { zh: '', en: '' }) : { zh: r.questionId, en: r.questionId },
      kind: (q?.kind ?? 'text') as QuestionKind,
    };
  });
  const percent = record.max_score > 0 ? Math.round((record.score / record.max_score) * 100) : 0;
  const dubbing = record.part === 'prpt' ? await dubbingSection(deps, record.user_id, record.film_id) : null;
  const wrongQuestions = items
    .map((item, k) => ({ item, index: k + 1 }))
    .filter(({ item }) => item.correct === false)
    .map(({ item, index }) => ({ index, prompt: item.prompt }));
  const { strengths, practice } = buildFeedback({
    answerPercent: percent,
    maxScore: record.max_score,
    wrongQuestions,
    lines: dubbing?.lines ?? [],
    improvement: dubbing?.improvement ?? null,
    emotionMatchRate: dubbing?.emotionMatchRate ?? null,
  });
  return {
    id: record.id,
    part: record.part as Part,
    film: {
      id: record.film_id,
      title: film?.title ?? record.film_id,
      titleEn: film?.title_en ?? record.film_id,
      poster: film ? storage.url(film.poster_key) : '',
    },
    learner: { nickname: learner?.nickname ?? '' },
    createdAt: record.created_at,
    durationMs: record.duration_ms,
    answers: { score: record.score, maxScore: record.max_score, percent, items },
    dubbing,
    strengths,
    practice,
  };
}

/** A learner's record by id (another learner's id is simply not found), or their latest in the part. */
export async function findRecord(
  db: Kysely<Database>,
  userId: string,
  part: Part,
  id: string | undefined,
): Promise<QuestionRecordsTable | null> {
  let q = db
    .selectFrom('question_records')
    .selectAll()
    .where('user_id', '=', userId)
    .where('part', '=', part);
  q = id ? q.where('id', '=', id) : q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1);
  return (await q.executeTakeFirst()) ?? null;
}
