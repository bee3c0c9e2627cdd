import { z } from 'zod';
import { saveQuestionRecordData } from './answers';
import { part } from './films';
import { speechScore } from './speech';

/**
 * A training run: one pass of a learner through one film in one part, its answers and its takes
 * together (the rule is in docs/api.md, "Runs"). Every report, the sound suggestion and the film
 * list's progress read the learner's latest run; earlier runs stay readable by id.
 */
export const runSummary = z.object({
  runId: z.string(),
  part,
  filmId: z.string(),
  filmTitle: z.string(),
  filmTitleEn: z.string(),
  startedAt: z.string(),
  /** The run's last answer or take. */
  updatedAt: z.string(),
  answered: z.boolean(),
  /** Answer score in percent (the report's `answers.percent`); null before the run's answers. */
  answerPercent: z.number().nullable(),
  dubbedLines: z.number().int(),
  totalLines: z.number().int(),
  /** Mean overall of each dubbed line's latest attempt (the report's `dubbing.average`); null without takes. */
  dubbingAverage: z.number().nullable(),
});
export type RunSummary = z.infer<typeof runSummary>;

const id = z.string().min(1).max(64);

/** get_run_history: a learner's runs in the part, newest first (optionally of one film). */
export const runHistoryRequest = z.object({
  filmId: id.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type RunHistoryRequest = z.input<typeof runHistoryRequest>;
export const runHistoryData = z.object({ runs: z.array(runSummary) });
export type RunHistoryData = z.infer<typeof runHistoryData>;

/** get_run: the state of the film's latest run (or of `runId`), to restore the screens after a reload. */
export const runStateRequest = z.object({ filmId: id, runId: id.optional() });
export type RunStateRequest = z.input<typeof runStateRequest>;

/** One line's takes in the run: first and latest retake as the scoring call answered them. */
export const runLine = z.object({
  subtitlesId: z.string(),
  /** The client's firstUserAudioJson. */
  first: speechScore,
  /** The client's secondUserAudioJson; null while the line has one take. */
  second: speechScore.nullable(),
  /** Takes of this line in the run (kept ones; see docs/api.md, "Storage"). */
  takes: z.number().int(),
});
export type RunLine = z.infer<typeof runLine>;

export const runStateData = z.object({
  /** null when the learner has no run of this film in this part yet. */
  run: runSummary.nullable(),
  /** The run's saved answers as save_question_record answered them; null before answering. */
  answers: saveQuestionRecordData.nullable(),
  /** Dubbed lines only, in film order (part two; empty in part one). */
  lines: z.array(runLine),
});
export type RunStateData = z.infer<typeof runStateData>;
