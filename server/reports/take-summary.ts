import type { LineAttemptSummary } from '../../src/api/contract';
import type { ParsedTake } from '../takes/attempts';

export function attemptSummary(take: ParsedTake, audioUrl: string): LineAttemptSummary {
  return {
    overall: take.score.overall,
    scores: take.score.scores,
    detected: take.score.emotion.detected,
    // May the class be named (v3 `named`; older results: `clear`).
    clear: take.score.emotion.named ?? take.score.emotion.clear ?? false,
    speechDetected: take.score.quality.speechDetected,
    arousal: take.score.emotion.arousal,
    valence: take.score.emotion.valence,
    audioUrl: take.score.audioUrl || audioUrl,
    ...(take.score.melody ? { melody: take.score.melody } : {}),
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
