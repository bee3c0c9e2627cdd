/**
 * The dubbed-video render queue, shared by every instance through the database (dub_renders): a run
 * asked for is a `queued` row; an instance with a free slot claims one (`rendering`, its heartbeat in
 * updated_at) and renders it in an ffmpeg child process. Claims take one lock (server/db/key-lock.ts),
 * so the order holds across the cluster: the learner served least recently goes first (a learner who
 * never had a render before anyone who has, then each waiting learner in turn: round robin), and
 * within a learner the oldest request. Waiting renders are capped per learner and in total (429).
 * An instance that dies stops its heartbeat; its render is queued again after the lease.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Code } from '../../src/api/contract';
import { withKeyLock } from '../db/key-lock';
import type { Database } from '../db/schema';
import { catalogueError } from '../lib/app-error';
import { nowIso } from '../lib/ids';
import { checkRenderRoom } from '../takes/retention';

export interface RenderQueueOptions {
  db: Kysely<Database>;
  /** Renders this instance runs at once; 0 = it queues renders for the others and runs none. */
  concurrency: number;
  waitingPerLearner: number;
  waitingTotal: number;
  /** The learner's 24-hour storage limit (bytes, 0 = none): no render is queued once it is used up. */
  quotaBytesPerDay: number;
  /** Renders one run (server/renders/dub-video.ts renderRun); `signal` aborts when the queue closes. */
  render: (runId: string, signal: AbortSignal) => Promise<void>;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** How often an idle instance looks for renders queued by the others. */
  pollMs?: number;
  /** A claimed render whose heartbeat is older than this died with its instance: it is queued again. */
  leaseMs?: number;
}

interface Claim {
  runId: string;
  startedAt: string;
}

export class RenderQueue {
  private readonly db: Kysely<Database>;
  private readonly active = new Map<string, Promise<void>>();
  private pumping: Promise<void> | null = null;
  private again = false;
  private readonly idleWaiters: (() => void)[] = [];
  private lastQueuedAt: string | null = null;
  private readonly stopping = new AbortController();
  private readonly poll: NodeJS.Timeout | null;
  private readonly leaseMs: number;

  constructor(private readonly options: RenderQueueOptions) {
    this.db = options.db;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.poll =
      options.concurrency > 0 ? setInterval(() => this.kick(), options.pollMs ?? 5_000).unref() : null;
  }

  /** Aborted when the queue closes: a running render stops its ffmpeg instead of holding the shutdown. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  /** Renders running on this instance. */
  get running(): number {
    return this.active.size;
  }

  /** Renders waiting in the whole service. */
  async waiting(): Promise<number> {
    const row = await this.db
      .selectFrom('dub_renders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Queues a render of `run` for `signature` (the row's previous render stays until the new one is
   * ready). A run already waiting keeps its place and does not count twice. Throws 429 when the
   * learner has `waitingPerLearner` renders waiting, the service `waitingTotal`, or the learner's
   * daily storage is used up.
   */
  async request(run: { id: string; user_id: string }, signature: string): Promise<void> {
    const { waitingPerLearner, waitingTotal } = this.options;
    await checkRenderRoom(this.db, run.user_id, this.options.quotaBytesPerDay);
    await withKeyLock(this.db, 'render-queue', async (trx) => {
      const counts = await trx
        .selectFrom('dub_renders')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn
            .sum<number | string>(eb.case().when('user_id', '=', run.user_id).then(1).else(0).end())
            .as('mine'),
        ])
        .where('status', '=', 'queued')
        .where('run_id', '<>', run.id)
        .executeTakeFirst();
      const mine = Number(counts?.mine ?? 0);
      const total = Number(counts?.total ?? 0);
      if (mine >= waitingPerLearner) {
        throw catalogueError(Code.RATE_LIMITED, 'render.yourQueue', {
          values: { count: String(mine) },
          data: { waiting: mine, limit: waitingPerLearner, retryAfterSeconds: 60 },
          status: 429,
        });
      }
      if (total >= waitingTotal) {
        throw catalogueError(Code.RATE_LIMITED, 'render.queueFull', {
          data: { waiting: total, limit: waitingTotal, retryAfterSeconds: 60 },
          status: 429,
        });
      }
      const at = nowIso();
      const values = {
        signature,
        status: 'queued' as const,
        error: null,
        queued_at: this.queuedAt(at),
        updated_at: at,
      };
      await trx
        .insertInto('dub_renders')
        .values({ run_id: run.id, user_id: run.user_id, media_key: null, started_at: null, ...values })
        .onConflict((oc) => oc.column('run_id').doUpdateSet(values))
        .execute();
    });
    this.kick();
  }

  /** Looks for work now (after a request, when a render ends, and every `pollMs`). */
  kick(): void {
    if (this.options.concurrency === 0 || this.stopping.signal.aborted) {
      this.settle();
      return;
    }
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        while (this.active.size < this.options.concurrency && !this.stopping.signal.aborted) {
          const claim = await this.claim().catch((err: unknown) => {
            this.options.log?.error({ err: String(err) }, 'render queue: claim failed');
            return null;
          });
          if (!claim) break;
          this.start(claim);
        }
      } while (this.again && !this.stopping.signal.aborted);
    })().finally(() => {
      this.pumping = null;
      this.settle();
    });
  }

  /**
   * Stops claiming, aborts the running renders and resolves when they have ended (shutdown). Their
   * rows go back to `queued`, so another instance (or this one after a restart) renders them.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    if (this.poll) clearInterval(this.poll);
    await this.idle();
  }

  /** Resolves when this instance renders nothing and finds nothing it could claim. */
  idle(): Promise<void> {
    if (!this.pumping && this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settle(): void {
    if (this.pumping || this.active.size > 0) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * The request time a render waits under: never equal to or before this instance's previous one, so
   * two requests within one millisecond keep their order (the claim orders by it, then by run id).
   */
  private queuedAt(now: string): string {
    const last = this.lastQueuedAt;
    const at = last !== null && now <= last ? new Date(Date.parse(last) + 1).toISOString() : now;
    this.lastQueuedAt = at;
    return at;
  }

  /** The next render by the round robin, claimed under the queue's lock (null: nothing waits). */
  private claim(): Promise<Claim | null> {
    return withKeyLock(this.db, 'render-claim', async (trx) => {
      const at = nowIso();
      await trx
        .updateTable('dub_renders')
        .set({ status: 'queued' })
        .where('status', '=', 'rendering')
        .where('updated_at', '<', new Date(Date.now() - this.leaseMs).toISOString())
        .execute();
      // Bounded by the caps (a few lapsed claims aside): the whole waiting list is read.
      const waiting = await trx
        .selectFrom('dub_renders')
        .select(['run_id', 'user_id'])
        .where('status', '=', 'queued')
        .orderBy('queued_at')
        .orderBy('run_id')
        .limit(this.options.waitingTotal * 2)
        .execute();
      if (waiting.length === 0) return null;
      const learners = [...new Set(waiting.map((w) => w.user_id))];
      const served = await trx
        .selectFrom('dub_renders')
        .select((eb) => ['user_id', eb.fn.max('started_at').as('last')])
        .where('user_id', 'in', learners)
        .groupBy('user_id')
        .execute();
      const last = new Map(served.map((s) => [s.user_id, s.last ?? '']));
      // `waiting` is in request order, so the first row of the least recently served learner wins.
      let next = waiting[0];
      for (const w of waiting) {
        if ((last.get(w.user_id) ?? '') < (last.get(next.user_id) ?? '')) next = w;
      }
      // After every waiting learner's last start, even within one millisecond of it: an equal time
      // would tie that learner with the one just served, and the tie goes to request order.
      const latest = served.reduce((m, s) => (s.last && s.last > m ? s.last : m), '');
      const startedAt = at > latest ? at : new Date(Date.parse(latest) + 1).toISOString();
      await trx
        .updateTable('dub_renders')
        .set({ status: 'rendering', started_at: startedAt, updated_at: startedAt })
        .where('run_id', '=', next.run_id)
        .where('status', '=', 'queued')
        .execute();
      return { runId: next.run_id, startedAt };
    });
  }

  private start(claim: Claim): void {
    const mine = () =>
      this.db
        .updateTable('dub_renders')
        .where('run_id', '=', claim.runId)
        .where('status', '=', 'rendering')
        .where('started_at', '=', claim.startedAt);
    const heartbeat = setInterval(() => {
      void mine()
        .set({ updated_at: nowIso() })
        .execute()
        .catch(() => undefined);
    }, this.leaseMs / 4).unref();
    const job = this.options
      .render(claim.runId, this.stopping.signal)
      .catch((err: unknown) => {
        this.options.log?.error({ err: String(err) }, `render of run ${claim.runId} failed`);
      })
      .then(async () => {
        clearInterval(heartbeat);
        // Stopped by a shutdown: back in the queue for another instance (or this one's restart).
        if (this.stopping.signal.aborted) await mine().set({ status: 'queued' }).execute();
      })
      .catch(() => undefined)
      .finally(() => {
        this.active.delete(claim.runId);
        this.kick();
      });
    this.active.set(claim.runId, job);
  }
}
