/**
 * The Mandarin word check off the event loop (docs/words.md, "Mandarin"). The native recogniser is synchronous, so
 * a call from the main thread runs in a small worker pool of its own, started on first use and bounded:
 * one thread by default (the model costs about 0.02–0.07 s per second of take), a short queue, and the
 * scoring pool's "busy" answer beyond it. A caller already in a worker thread (the scoring pool's
 * workers, server/ai/score-task.ts) is off the event loop and runs the check in place.
 */
import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { Code, type WordCheck } from '../../../src/api/contract';
import { catalogueError } from '../../lib/app-error';
import { type MandarinCheckJob, runMandarinCheck } from './check';

const WORKER_FILE = new URL('./worker.cjs', import.meta.url).href;
/** Checks allowed to wait per thread before new ones are shed. */
const QUEUE_PER_THREAD = 8;

let pool: Piscina<MandarinCheckJob, WordCheck> | null = null;

/** The pool's size: one thread, two on machines with eight cores or more (the scoring pool has the rest). */
export function mandarinThreads(): number {
  return availableParallelism() >= 8 ? 2 : 1;
}

function thePool(): Piscina<MandarinCheckJob, WordCheck> {
  if (pool) return pool;
  const threads = mandarinThreads();
  pool = new Piscina({
    filename: WORKER_FILE,
    minThreads: 0,
    maxThreads: threads,
    maxQueue: threads * QUEUE_PER_THREAD,
    // The model is loaded once per thread; keep the thread while takes keep coming.
    idleTimeout: 120_000,
  });
  return pool;
}

export async function checkMandarinOffLoop(job: MandarinCheckJob): Promise<WordCheck> {
  if (!isMainThread) return runMandarinCheck(job);
  const p = thePool();
  if (p.queueSize >= p.options.maxQueue) throw busy();
  // A copy of the take goes to the worker, so the caller keeps its own buffer.
  const samples = job.samples.slice();
  try {
    return await p.run({ ...job, samples }, { transferList: [samples.buffer as ArrayBuffer] });
  } catch (err) {
    if (err instanceof Error && /queue is at limit/i.test(err.message)) throw busy();
    throw err;
  }
}

/** Stops the pool's threads (tests, graceful shutdown); the next check starts it again. */
export async function closeMandarinPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}

function busy() {
  return catalogueError(Code.BUSY, 'error.scoringBusy', { data: { retryAfterSeconds: 2 }, status: 503 });
}
