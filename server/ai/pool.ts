import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { Code } from '../../src/api/contract';
import { errorText } from '../../src/i18n/errors';
import { type AppError, catalogueError } from '../lib/app-error';
import type {
  ReferenceJob,
  ReferenceJobResult,
  ScoreJob,
  ScoreJobRefusal,
  ScoreJobResult,
  WarmupJob,
  WarmupJobResult,
  WordSamples,
  WordSamplesJob,
} from './score-task';

/** The worker threads' entry: CommonJS, see the comment at its top. */
export const SCORE_WORKER_FILE = new URL('./score-worker.cjs', import.meta.url).href;

export const BUSY_MESSAGE = errorText('error.scoringBusy', 'zh');

/** Tasks allowed to wait per worker before new ones are shed (a 3 s take scores in tens of ms). */
const QUEUE_PER_WORKER = 8;

/**
 * The scoring worker pool: `threads` node:worker_threads, a bounded queue, and load shedding with
 * code 503 when the queue is full, so a burst degrades into clear "busy" answers instead of
 * unbounded memory and latency.
 */
export class ScoringPool {
  private readonly pool: Piscina<
    ScoreJob | ReferenceJob | WarmupJob | WordSamplesJob,
    ScoreJobResult | ScoreJobRefusal | ReferenceJobResult | WarmupJobResult | WordSamples | null
  >;
  readonly maxQueue: number;

  constructor(threads: number, maxQueue = threads * QUEUE_PER_WORKER) {
    this.maxQueue = maxQueue;
    this.pool = new Piscina({
      filename: SCORE_WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
      maxQueue,
      // Analysis buffers are allocated once per worker; keep workers alive between takes.
      idleTimeout: 60_000,
    });
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  async run(job: ScoreJob): Promise<ScoreJobResult | ScoreJobRefusal> {
    try {
      if (this.pool.queueSize >= this.maxQueue) throw busy();
      const transfer: (ArrayBuffer | MessagePort)[] = [job.wav.buffer as ArrayBuffer];
      if (job.reference && 'wav' in job.reference) transfer.push(job.reference.wav.buffer as ArrayBuffer);
      if (job.wordsPort) transfer.push(job.wordsPort);
      return (await this.pool.run(job, { transferList: transfer })) as ScoreJobResult | ScoreJobRefusal;
    } catch (err) {
      // A job that never reached a worker answers its words port here, so the check waiting on it
      // ends (a port already handed to a worker ignores this; the job there answers it).
      job.wordsPort?.postMessage(null);
      job.wordsPort?.close();
      if (err instanceof Error && /queue is at limit/i.test(err.message)) throw busy();
      throw err;
    }
  }

  /** A line's audio as the word check reads it (server/ai/take-words.ts); shed like a take when the queue is full. */
  async wordSamples(job: WordSamplesJob): Promise<WordSamples | null> {
    if (this.pool.queueSize >= this.maxQueue) throw busy();
    return (await this.pool.run(job, {
      name: 'wordSamplesJob',
      transferList: [job.wav.buffer as ArrayBuffer],
    })) as WordSamples | null;
  }

  /** The actors' readings of some lines (server/ai/reference.ts); shed like a take when the queue is full. */
  async readReferences(job: ReferenceJob): Promise<ReferenceJobResult> {
    if (this.pool.queueSize >= this.maxQueue) throw busy();
    const transfer = job.lines.flatMap((l) => (l.wav ? [l.wav.buffer as ArrayBuffer] : []));
    return (await this.pool.run(job, {
      name: 'readReferencesJob',
      transferList: transfer,
    })) as ReferenceJobResult;
  }

  /** A voice warm-up's features (server/takes/warmup.ts); shed like a take when the queue is full. */
  async warmup(job: WarmupJob): Promise<WarmupJobResult> {
    if (this.pool.queueSize >= this.maxQueue) throw busy();
    return (await this.pool.run(job, {
      name: 'warmupJob',
      transferList: [job.wav.buffer as ArrayBuffer],
    })) as WarmupJobResult;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

function busy(): AppError {
  return catalogueError(Code.BUSY, 'error.scoringBusy', { data: { retryAfterSeconds: 2 }, status: 503 });
}
