import type { Kysely } from 'kysely';
import type { ReferenceRecord } from '../../src/audio/scoring/pipeline';
import type { Database } from '../db/schema';
import { nowIso } from '../lib/ids';
import type { MediaStorage } from '../storage/media-storage';
import type { ScoreJob } from './score-task';

/**
 * The actor's line for a subtitle: the cached analysis when there is one, else the reference wav
 * (the worker analyses it and the result is cached), else null when the line has no usable audio.
 */
export async function loadReference(
  db: Kysely<Database>,
  storage: MediaStorage,
  subtitleId: string,
  referenceKey: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<ScoreJob['reference']> {
  const cached = await db
    .selectFrom('reference_analyses')
    .select('analysis')
    .where('subtitle_id', '=', subtitleId)
    .executeTakeFirst();
  if (cached) {
    try {
      const record = JSON.parse(cached.analysis) as ReferenceRecord;
      if (record.version === 1) return { record };
    } catch (err) {
      log.warn({ err, subtitleId }, 'unreadable cached reference analysis; analysing again');
    }
  }
  if (!referenceKey) return null;
  try {
    return { wav: new Uint8Array(await storage.get(referenceKey)) };
  } catch (err) {
    // A missing reference must not block the learner: the take is scored on its own.
    log.warn({ err, subtitleId, referenceKey }, 'reference audio missing; scoring without the actor');
    return null;
  }
}

/** Caches a freshly analysed reference (first writer wins; the analysis is deterministic). */
export async function cacheReference(
  db: Kysely<Database>,
  subtitleId: string,
  record: ReferenceRecord,
): Promise<void> {
  await db
    .insertInto('reference_analyses')
    .values({ subtitle_id: subtitleId, analysis: JSON.stringify(record), created_at: nowIso() })
    .onConflict((oc) => oc.column('subtitle_id').doNothing())
    .execute();
}

/** Drops cached analyses of a film's lines (after a re-import changes the reference audio). */
export async function forgetReferences(db: Kysely<Database>, subtitleIds: string[]): Promise<void> {
  if (subtitleIds.length === 0) return;
  await db.deleteFrom('reference_analyses').where('subtitle_id', 'in', subtitleIds).execute();
}
