import type {
  Emotion,
  Localized,
  Part,
  QuestionKind,
  QuestionResult,
  Report,
  ReportLine,
  SubScores,
} from '../../src/api/contract';
import { aggregateRun, aggregateTake } from '../../src/audio/scoring/aggregate';
import { ARC_MIN_LINES, arcVerdict, sceneArc } from '../../src/audio/scoring/emotion-match';
import { actorReadings, type ReadingDeps } from '../ai/reference';
import type { FilmsTable, RunsTable } from '../db/schema';
import {
  filmByIdCached,
  filmLines,
  filmLinesCached,
  filmQuestionsCached,
  publicQuestionId,
} from '../films/queries';
import { parseJson } from '../lib/json';
import type { MediaStorage } from '../storage/media-storage';
import { runAttempts } from '../takes/repository';
import { listRuns, runRecord } from '../takes/runs';
import { buildFeedback } from './feedback';
import { summariseRuns } from './run-summaries';
import { attemptSummary } from './take-summary';

export type ReportDeps = ReadingDeps;

/** Runs shown on the report's progress curve. */
const PROGRESS_RUNS = 20;

/** A take's audio URL; a key the storage refuses yields '' rather than failing the whole report. */
function mediaUrl(storage: MediaStorage, key: string): string {
  try {
    return storage.url(key);
  } catch {
    return '';
  }
}

/**
 * Dubbing per line of one run; first and second attempt by the rule of server/takes/attempts.ts, the
 * figures by the one rule of src/audio/scoring/aggregate.ts (the voice tips and the history use it too).
 */
async function dubbingSection(
  deps: ReportDeps,
  run: RunsTable,
  film: FilmsTable | null,
): Promise<{ section: NonNullable<Report['dubbing']>; subScores: SubScores | null }> {
  const { db, storage } = deps;
  const lines = film ? await filmLinesCached(db, film) : await filmLines(db, run.film_id);
  const [attempts, actors] = await Promise.all([runAttempts(db, run.id), actorReadings(deps, lines)]);
  const figures = aggregateRun(
    lines.map((l) => {
      const a = attempts.get(l.id);
      return {
        subtitlesId: l.id,
        first: a ? aggregateTake(a.first.score, l.target_emotion) : null,
        second: a?.second ? aggregateTake(a.second.score, l.target_emotion) : null,
      };
    }),
  );
  const reportLines: ReportLine[] = lines.map((l) => {
    const f = attempts.get(l.id)?.first ?? null;
    const s = attempts.get(l.id)?.second ?? null;
    return {
      subtitlesId: l.id,
      index: l.idx,
      text: l.text,
      translation: parseJson<Localized>(l.translation, { zh: '', en: '' }),
      speaker: l.speaker,
      targetEmotion: (l.target_emotion as Emotion | null) ?? null,
      actor: actors.get(l.id) ?? null,
      first: f ? attemptSummary(f, mediaUrl(storage, f.row.audio_key)) : null,
      second: s ? attemptSummary(s, mediaUrl(storage, s.row.audio_key)) : null,
      ...(l.reference_audio_key ? { referenceAudio: mediaUrl(storage, l.reference_audio_key) } : {}),
      contours: (s ?? f)?.score.contours ?? null,
    };
  });
  return {
    section: {
      lines: reportLines,
      arc: runArc(reportLines),
      scoredLines: figures.scoredLines,
      dubbedLines: figures.dubbedLines,
      silentLines: figures.silentLines,
      average: figures.average,
      improvement: figures.improvement,
      emotionMatchRate: figures.emotionMatchRate,
      emotionAverage: figures.emotionAverage,
    },
    subScores: figures.subScores,
  };
}

/**
 * The run's scene arc: the lines in film order whose latest take has speech and whose actor was read,
 * the learner's arousal as stored with each take (read against the learner's statistics then).
 */
export function runArc(lines: readonly ReportLine[]): NonNullable<Report['dubbing']>['arc'] {
  const pairs = [...lines]
    .sort((a, b) => a.index - b.index)
    .flatMap((l) => {
      const take = l.second ?? l.first;
      return take && take.speechDetected !== false && l.actor ? [{ learner: take, actor: l.actor }] : [];
    });
  if (pairs.length < ARC_MIN_LINES) return null;
  const arc = sceneArc(
    pairs.map((p) => p.learner),
    pairs.map((p) => p.actor),
  );
  return {
    score: Math.round(arc.score),
    correlation: arc.correlation === null ? null : Math.round(arc.correlation * 1000) / 1000,
    lines: arc.lines,
    verdict: arcVerdict(arc),
  };
}

/** The report of one run: its answers (if any), its takes (part two) and the learner's progress curve. */
export async function buildRunReport(deps: ReportDeps, run: RunsTable): Promise<Report> {
  const { db, storage } = deps;
  const part = run.part as Part;
  const [record, film, learner, questions, recent] = await Promise.all([
    runRecord(db, run.id),
    filmByIdCached(db, run.film_id),
    db.selectFrom('users').select('nickname').where('id', '=', run.user_id).executeTakeFirst(),
    filmQuestionsCached(db, run.film_id),
    listRuns(db, run.user_id, part, undefined, PROGRESS_RUNS),
  ]);
  const byPublicId = new Map(questions.map((q) => [publicQuestionId(q), q]));
  const results = parseJson<QuestionResult[]>(record?.results, []);
  const items = results.map((r) => {
    const q = byPublicId.get(r.questionId);
    return {
      ...r,
      prompt: q ? parseJson<Localized>(q.prompt, { zh: '', en: '' }) : { zh: r.questionId, en: r.questionId },
      kind: (q?.kind ?? 'text') as QuestionKind,
    };
  });
  const score = record?.score ?? 0;
  const maxScore = record?.max_score ?? 0;
  const percent = maxScore > 0 ? Math.round((score / maxScore) * 100) : 0;
  const dubbed = part === 'prpt' ? await dubbingSection(deps, run, film) : null;
  const dubbing = dubbed?.section ?? null;
  const progress = await summariseRuns(db, recent.reverse());
  const { strengths, practice } = buildFeedback({
    answerPercent: percent,
    maxScore,
    items: items.map((item, k) => ({ index: k + 1, prompt: item.prompt, correct: item.correct })),
    subScores: dubbed?.subScores ?? null,
    improvement: dubbing?.improvement ?? null,
    emotionMatchRate: dubbing?.emotionMatchRate ?? null,
    previousAnswerPercent: previousRun(progress, run.id)?.answerPercent ?? null,
  });
  return {
    id: record?.id ?? run.id,
    runId: run.id,
    part,
    film: {
      id: run.film_id,
      title: film?.title ?? run.film_id,
      titleEn: film?.title_en ?? run.film_id,
      poster: film ? storage.url(film.poster_key) : '',
    },
    learner: { nickname: learner?.nickname ?? '' },
    // The run's latest answer or take: the time its history row shows (server/takes/runs.ts).
    createdAt: run.updated_at,
    durationMs: timeSpentMs(record, run),
    answers: { answered: record !== null, score, maxScore, percent, items },
    dubbing,
    strengths,
    practice,
    progress,
  };
}

/**
 * Time spent on the run: the answering, as the client measured it from opening the film
 * (`duration_ms`), plus the dubbing after the answers were saved (to the run's latest take, the
 * server's clock). The answering time alone read "0:08" for six minutes of answering and dubbing.
 */
export function timeSpentMs(
  record: { created_at: string; duration_ms: number | null } | null | undefined,
  run: Pick<RunsTable, 'started_at' | 'updated_at'>,
): number | null {
  const span = (from: string) => Math.max(0, Date.parse(run.updated_at) - Date.parse(from));
  if (!record) return span(run.started_at) || null;
  const after = span(record.created_at);
  if (record.duration_ms === null) return after || null;
  return record.duration_ms + after;
}

/** The learner's answered run of the same film just before this one, on the curve. */
function previousRun(progress: Report['progress'] & object, runId: string) {
  const k = progress.findIndex((r) => r.runId === runId);
  const film = progress[k]?.filmId;
  return k > 0
    ? progress
        .slice(0, k)
        .reverse()
        .find((r) => r.filmId === film && r.answered)
    : undefined;
}
