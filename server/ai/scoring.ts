import type { SpeechScore } from '../../src/api/contract';
import type { ScoringPool } from './pool';
import { type ScoringDeps, scoreAndStore, type TakeSubmission } from './score-and-store';

/**
 * How the upload route gets a take scored and stored. Both ways answer with the score, so the route
 * and the client contract are the same: `LocalScoring` scores in this process's worker pool;
 * `QueuedScoring` (server/ai/queue.ts, with REDIS_URL) stores the wav, enqueues a job for the
 * scoring workers of any host and waits for its result.
 */
export interface TakeScoring {
  readonly mode: 'pool' | 'queue';
  submit(take: TakeSubmission, wav: Buffer): Promise<SpeechScore>;
  /** Figures for /health; throws when the scoring engine cannot be reached. */
  probe(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export class LocalScoring implements TakeScoring {
  readonly mode = 'pool';

  constructor(
    private readonly deps: ScoringDeps & { pool: ScoringPool },
    private readonly workers: number,
  ) {}

  submit(take: TakeSubmission, wav: Buffer): Promise<SpeechScore> {
    return scoreAndStore(this.deps, take, wav, false);
  }

  async probe() {
    return {
      mode: this.mode,
      workers: this.workers,
      queued: this.deps.pool.queueSize,
      maxQueue: this.deps.pool.maxQueue,
    };
  }

  /** The pool is the app's (server/plugins/scoring.ts) and closes with it. */
  async close(): Promise<void> {}
}
