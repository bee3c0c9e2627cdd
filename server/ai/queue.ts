import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { Code, type SpeechScore, speechScore } from '../../src/api/contract';
import type { Config } from '../config';
import { catalogueError } from '../lib/app-error';
import { closeRedis, openRedis } from '../redis/connect';
import type { MediaStorage } from '../storage/media-storage';
import type { TakeScoring } from './scoring';
import { type ScoringDeps, scoreAndStore, type TakeSubmission } from './score-and-store';
import { findStoredTake, takeAudioKey } from '../takes/repository';

export const QUEUE_NAME = 'score-takes';

/** A failed job is tried again twice, 1 s and 2 s later (a database or store hiccup). */
const JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  // Finished jobs stay an hour for uploads that wait on them; the take row is the lasting record.
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 24 * 3_600 },
} as const;

const NO_WORKER =
  'no scoring worker is consuming the queue: uploads wait and answer 503 until one runs (npm run start:ai-worker)';

export const bullPrefix = (config: Pick<Config, 'redisPrefix'>) => `${config.redisPrefix}:bull`;

/**
 * Scoring through a BullMQ queue on Redis. The upload's process stores the wav, adds a job whose id
 * is the take's row id (adding it again is a no-op, so a retried upload joins the same job) and waits
 * for the result; `npm run start:ai-worker` processes on any host score it.
 */
export class QueuedScoring implements TakeScoring {
  readonly mode = 'queue';
  private readonly queue: Queue<TakeSubmission, SpeechScore>;
  private readonly events: QueueEvents;
  private readonly connections: Redis[];

  constructor(
    private readonly config: Config,
    private readonly storage: MediaStorage,
    private readonly log: FastifyBaseLogger,
  ) {
    const url = config.redisUrl as string;
    const commands = openRedis(url, 'commands');
    const blocking = openRedis(url, 'blocking');
    this.connections = [commands, blocking];
    this.queue = new Queue(QUEUE_NAME, { connection: commands, prefix: bullPrefix(config) });
    this.events = new QueueEvents(QUEUE_NAME, { connection: blocking, prefix: bullPrefix(config) });
  }

  async submit(take: TakeSubmission, wav: Buffer): Promise<SpeechScore> {
    await this.storage.put(takeAudioKey(take.userId, take.runId, take.rowId), wav);
    const job = await this.queue.add('score', take, { ...JOB_OPTIONS, jobId: take.rowId });
    // A job that failed for good earlier (kept a day under this id) runs again for the new upload.
    if ((await job.getState()) === 'failed') await job.retry('failed');
    try {
      return speechScore.parse(await job.waitUntilFinished(this.events, this.config.scoreTimeoutMs));
    } catch (err) {
      if (err instanceof Error && /timed out/.test(err.message)) {
        // The job goes on; the client's retry with the same takeId finds its stored score.
        await this.checkWorkers();
        throw catalogueError(Code.BUSY, 'scoring.queued', { data: { retryAfterSeconds: 2 }, status: 503 });
      }
      throw err;
    }
  }

  async probe() {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    const workers = await this.workers();
    return {
      mode: this.mode,
      workers,
      // The service answers, but no take is scored until a worker runs: /health says so in words.
      ...(workers === 0 ? { problem: NO_WORKER } : {}),
      ...counts,
    };
  }

  /** Scoring workers connected to the queue; null when Redis refuses CLIENT LIST (managed Redis). */
  private workers(): Promise<number | null> {
    return this.queue.getWorkersCount().catch(() => null);
  }

  /** Logs a warning when no worker consumes the queue (at start, and when an upload timed out). */
  async checkWorkers(): Promise<void> {
    if ((await this.workers()) === 0) this.log.warn({ queue: QUEUE_NAME }, NO_WORKER);
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.close();
    await Promise.all(this.connections.map(closeRedis));
  }
}

/**
 * One line per finished job: which worker scored which take (or found it stored already, when it
 * took over a job whose first worker stored the take and died), after how many tries, how fast.
 */
function logJob(
  log: FastifyBaseLogger,
  job: Job<TakeSubmission>,
  ms: number,
  outcome: 'job scored' | 'job already stored' | Error,
): void {
  const line = {
    job: job.id,
    takeId: job.data.takeId,
    user: job.data.userId,
    attempt: job.attemptsMade + 1,
    ms,
  };
  if (outcome instanceof Error) log.warn({ ...line, err: outcome.message }, 'job failed');
  else log.info(line, outcome);
}

/**
 * The scoring worker of `npm run start:ai-worker`: takes jobs (AI_WORKERS at a time, each scored in
 * the worker pool, off the event loop so the job locks stay renewed), reads the wav the upload
 * stored, scores and stores the take. A worker that dies holds its job's lock until it lapses
 * (SCORE_JOB_LOCK_MS); then another worker takes the job over, and scoreAndStore makes sure the
 * take is stored once.
 */
export function startScoringWorker(config: Config, deps: ScoringDeps, log: FastifyBaseLogger) {
  const connection = openRedis(config.redisUrl as string, 'blocking');
  const worker = new Worker<TakeSubmission, SpeechScore>(
    QUEUE_NAME,
    async (job) => {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      log.debug({ job: job.id, takeId: job.data.takeId }, 'job started');
      try {
        const stored = await findStoredTake(deps.db, job.data.rowId, job.data.userId);
        if (stored) {
          logJob(log, job, ms(), 'job already stored');
          return stored;
        }
        const wav = await deps.storage.get(takeAudioKey(job.data.userId, job.data.runId, job.data.rowId));
        const score = await scoreAndStore(deps, job.data, wav, true);
        logJob(log, job, ms(), 'job scored');
        return score;
      } catch (err) {
        logJob(log, job, ms(), err as Error);
        throw err;
      }
    },
    {
      connection,
      prefix: bullPrefix(config),
      concurrency: config.aiWorkers,
      lockDuration: config.scoreJobLockMs,
      stalledInterval: Math.max(1_000, Math.round(config.scoreJobLockMs / 2)),
      maxStalledCount: 3,
      name: config.instanceId,
    },
  );
  worker.on('error', (err) => log.error({ err }, 'queue connection error'));
  return {
    worker,
    /** Stops taking jobs, lets the running ones finish, then closes the connection. */
    async close() {
      await worker.close();
      await closeRedis(connection);
    },
  };
}
