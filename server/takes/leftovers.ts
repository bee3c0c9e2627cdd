import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { MediaStorage } from '../storage/media-storage';
import { cleanOrphanTakes } from './retention';

export interface LeftoversSwept {
  /** Take audio (and renders) no row owns. */
  files: number;
  /** Take rows whose audio is gone. */
  rows: number;
  /** Temporary files of writes a crash cut short. */
  temporary: number;
}

/** Removes what a crash left behind and no row owns, if it is older than `graceMs` (docs/security.md). */
export async function sweepLeftovers(
  db: Kysely<Database>,
  storage: MediaStorage,
  graceMs: number,
  now = Date.now(),
): Promise<LeftoversSwept> {
  const takes = await cleanOrphanTakes(db, storage, graceMs, now);
  const temporary = (await storage.removeStaleTemporary?.(now - graceMs)) ?? 0;
  return { ...takes, temporary };
}

/**
 * Sweeps at start, again once LEFTOVERS_GRACE_MS has passed (what the last crash left was younger
 * than the grace at start, so the first sweep spared it) and then hourly. Answers the timers, for
 * shutdown to clear; the first sweep has finished when the promise resolves.
 */
export async function scheduleLeftoverSweeps(app: FastifyInstance): Promise<NodeJS.Timeout[]> {
  const graceMs = app.config.leftoversGraceMs;
  const sweep = async () => {
    try {
      const swept = await sweepLeftovers(app.db, app.storage, graceMs);
      if (swept.files || swept.rows || swept.temporary)
        app.log.info(
          swept,
          'removed leftovers: take audio without rows, take rows without audio, temporary files',
        );
    } catch (err) {
      app.log.warn({ err }, 'leftover sweep failed');
    }
  };
  await sweep();
  const again = setTimeout(() => void sweep(), graceMs + 1000);
  const hourly = setInterval(() => void sweep(), 3_600_000);
  again.unref();
  hourly.unref();
  return [again, hourly];
}
