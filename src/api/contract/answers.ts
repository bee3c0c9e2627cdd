import { z } from 'zod';
import { localized, part } from './films';

export const answerValue = z.union([z.string().max(2000), z.array(z.string().max(64)).max(20)]);

export const saveQuestionRecordRequest = z.object({
  filmId: z.string().min(1).max(64),
  answers: z.array(z.object({ questionId: z.string().min(1).max(64), value: answerValue })).max(50),
  /** Milliseconds the learner spent on the film before saving (watching + answering). */
  durationMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600 * 1000)
    .optional(),
});
export type SaveQuestionRecordRequest = z.infer<typeof saveQuestionRecordRequest>;

export const questionResult = z.object({
  questionId: z.string(),
  /** null for open text questions, which are not scored automatically. */
  correct: z.boolean().nullable(),
  score: z.number(),
  points: z.number(),
  answer: answerValue.nullable(),
  correctAnswer: z.array(z.string()).nullable(),
  explanation: localized,
});
export type QuestionResult = z.infer<typeof questionResult>;

export const saveQuestionRecordData = z.object({
  recordId: z.string(),
  /** The run these answers belong to (docs/api.md, "Runs"); send it with the run's takes. */
  runId: z.string().optional(),
  part,
  filmId: z.string(),
  score: z.number(),
  maxScore: z.number(),
  /** score / maxScore in percent, rounded. */
  percent: z.number(),
  results: z.array(questionResult),
});
export type SaveQuestionRecordData = z.infer<typeof saveQuestionRecordData>;
