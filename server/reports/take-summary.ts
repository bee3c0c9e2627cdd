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
    ...(take.score.words ? { words: take.score.words } : {}),
    ...(take.score.actorWords ? { actorWords: take.score.actorWords } : {}),
    createdAt: take.row.created_at,
  };
}
