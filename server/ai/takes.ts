import type { Kysely } from 'kysely';
import { type SpeechScore, speechScore } from '../../src/api/contract';
import { FEATURE_NAMES, type SpeakerStats, updateSpeakerStats } from '../../src/audio/analysis';
import type { Database } from '../db/schema';
import { nowIso, sha256Hex } from '../lib/ids';
import type { MediaStorage } from '../storage/media-storage';

/**
 * Row id of a take. With a client takeId the id is derived from (user, takeId), so a retried upload
 * finds its first result and two users can never collide on an id.
 */
export function takeRowId(userId: string, takeId: string): string {
  return sha256Hex(`${userId}:${takeId}`).slice(0, 32);
}

export const takeAudioKey = (userId: string, rowId: string) => `takes/${userId}/${rowId}.wav`;

export async function findStoredTake(
  db: Kysely<Database>,
  rowId: string,
  userId: string,
): Promise<SpeechScore | null> {
  const row = await db
    .selectFrom('takes')
    .select('result')
    .where('id', '=', rowId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? speechScore.parse(JSON.parse(row.result)) : null;
}

export async function loadSpeakerStats(db: Kysely<Database>, userId: string): Promise<SpeakerStats | null> {
  const row = await db
    .selectFrom('speaker_stats')
    .select('stats')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const stats = JSON.parse(row.stats) as SpeakerStats;
  // Statistics gathered under another feature set cannot normalise this one: start cold again.
  const usable =
    Array.isArray(stats.mean) && Array.isArray(stats.m2) && stats.mean.length === FEATURE_NAMES.length;
  return usable ? stats : null;
}

export interface NewTake {
  rowId: string;
  userId: string;
  filmId: string;
  subtitleId: string;
  attempt: number;
  audio: Buffer;
  score: SpeechScore;
  /** Utterance features of this take; folded into the learner's running statistics. */
  features: number[] | null;
}

/**
 * Stores the audio, then the take row and the learner's updated statistics in one transaction.
 * If the row cannot be written the audio is removed again, so storage never holds orphans.
 * Returns false when a concurrent retry with the same id stored first.
 */
export async function storeTake(
  db: Kysely<Database>,
  storage: MediaStorage,
  take: NewTake,
): Promise<boolean> {
  const key = takeAudioKey(take.userId, take.rowId);
  await storage.put(key, take.audio);
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('takes')
        .values({
          id: take.rowId,
          user_id: take.userId,
          film_id: take.filmId,
          subtitle_id: take.subtitleId,
          attempt: take.attempt,
          audio_key: key,
          result: JSON.stringify(take.score),
          overall: take.score.overall,
          created_at: take.score.createdAt,
        })
        .execute();
      if (!take.features) return;
      // Read inside the transaction so two takes of one learner do not lose an update.
      const row = await trx
        .selectFrom('speaker_stats')
        .select('stats')
        .where('user_id', '=', take.userId)
        .executeTakeFirst();
      let previous: SpeakerStats | null = row ? (JSON.parse(row.stats) as SpeakerStats) : null;
      if (previous && previous.mean.length !== take.features.length) previous = null; // feature set changed
      const next = updateSpeakerStats(previous, Float64Array.from(take.features));
      const values = { count: next.count, stats: JSON.stringify(next), updated_at: nowIso() };
      await trx
        .insertInto('speaker_stats')
        .values({ user_id: take.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    });
    return true;
  } catch (err) {
    const exists = await db.selectFrom('takes').select('id').where('id', '=', take.rowId).executeTakeFirst();
    if (exists) return false; // the concurrent twin stored it (with this same audio key)
    await storage.delete(key).catch(() => undefined);
    throw err;
  }
}
