import { z } from 'zod';
import { emotion, type LineAttemptSummary, subScores } from '../../src/api/contract';
import type { TakesTable } from '../db/schema';
import { parseJson } from '../lib/json';

/** The fields of a stored SpeechScore (contract `speechScore`) that a report needs. */
const storedScore = z.object({
  overall: z.number(),
  scores: subScores,
  emotion: z.object({
    detected: emotion,
    arousal: z.number(),
    valence: z.number(),
    target: emotion.nullable().optional(),
    actorProbabilities: z.record(z.string(), z.number()).nullable().optional(),
  }),
  audioUrl: z.string().optional(),
});
export type StoredScore = z.infer<typeof storedScore>;

export interface ParsedTake {
  row: TakesTable;
  score: StoredScore;
}

/** Reads a take's result; null when it does not carry the fields a report needs. */
export function parseTake(row: TakesTable): ParsedTake | null {
  const parsed = storedScore.safeParse(parseJson<unknown>(row.result, null));
  return parsed.success ? { row, score: parsed.data } : null;
}

export function attemptSummary(take: ParsedTake, audioUrl: string): LineAttemptSummary {
  return {
    overall: take.score.overall,
    scores: take.score.scores,
    detected: take.score.emotion.detected,
    arousal: take.score.emotion.arousal,
    valence: take.score.emotion.valence,
    audioUrl: take.score.audioUrl ?? audioUrl,
    createdAt: take.row.created_at,
  };
}

/** The emotion a take aimed at: the line's annotation, else the one the scorer used, else the actor's strongest. */
export function targetOf(take: ParsedTake, annotated: string | null): string | null {
  if (annotated) return annotated;
  if (take.score.emotion.target) return take.score.emotion.target;
  const probs = take.score.emotion.actorProbabilities;
  if (!probs) return null;
  return Object.entries(probs).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}
