/**
 * The voice warm-up: before a learner's first take, a few seconds of a neutral
 * line give the emotion reading a baseline of their own voice. Recorded, its features become the
 * learner's running statistics (speaker_stats, one take's worth) when there are none yet, so the first
 * real take is read against that voice rather than cold; the warm-up itself is never scored. Skipped,
 * the first takes are read cold and their results say so (`emotion.voiceTakes` 0). Either answer is
 * remembered, so the step is offered once.
 */
import type { Kysely } from 'kysely';
import { FEATURE_NAMES } from '../../src/audio/analysis/feature-names';
import { updateSpeakerStats } from '../../src/audio/analysis/speaker-stats';
import type { Database } from '../db/schema';
import { nowIso } from '../lib/ids';

/** none: never asked; recorded / skipped: answered; known: the learner has takes already (not offered). */
export type WarmupStatus = 'none' | 'recorded' | 'skipped' | 'known';

export async function warmupStatus(db: Kysely<Database>, userId: string): Promise<WarmupStatus> {
  const [row, stats] = await Promise.all([
    db.selectFrom('voice_warmups').select('status').where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('speaker_stats').select('count').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  if (row) return row.status;
  return stats && stats.count > 0 ? 'known' : 'none';
}

/**
 * Stores the warm-up (features) or the skip (null). A recorded warm-up seeds speaker_stats only when
 * the learner has none: statistics of real takes already know the voice better than one sentence.
 * Returns whether the statistics were seeded. A second answer replaces the first one's row.
 */
export async function storeWarmup(
  db: Kysely<Database>,
  userId: string,
  features: number[] | null,
): Promise<{ seeded: boolean }> {
  if (features && features.length !== FEATURE_NAMES.length) {
    throw new Error(`warm-up has ${features.length} features, the analysis ${FEATURE_NAMES.length}`);
  }
  return db.transaction().execute(async (trx) => {
    const values = {
      status: features ? ('recorded' as const) : ('skipped' as const),
      features: features ? JSON.stringify(features) : null,
      created_at: nowIso(),
    };
    await trx
      .insertInto('voice_warmups')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    if (!features) return { seeded: false };
    const existing = await trx
      .selectFrom('speaker_stats')
      .select('count')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing && existing.count > 0) return { seeded: false };
    const seed = updateSpeakerStats(null, Float64Array.from(features));
    const stats = { count: seed.count, stats: JSON.stringify(seed), updated_at: nowIso() };
    // A take stored between the read and this write wins: its statistics are kept (do nothing).
    await trx
      .insertInto('speaker_stats')
      .values({ user_id: userId, ...stats })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return { seeded: true };
  });
}
