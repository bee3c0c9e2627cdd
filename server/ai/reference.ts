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
      // Film media keys are versioned per import: a different key means different audio.
      if (record.version === 1 && record.audioKey === referenceKey) return { record };
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

/** Caches a freshly analysed reference, replacing one computed from older audio of the line. */
export async function cacheReference(
  db: Kysely<Database>,
  subtitleId: string,
  audioKey: string,
  record: ReferenceRecord,
): Promise<void> {
  const values = { analysis: JSON.stringify({ ...record, audioKey }), created_at: nowIso() };
  await db
    .insertInto('reference_analyses')
    .values({ subtitle_id: subtitleId, ...values })
    .onConflict((oc) => oc.column('subtitle_id').doUpdateSet(values))
    .execute();
}
