/**
 * The takes repository: every SQL statement about learners' takes and the attempts picked from them
 * lives here; routes and report builders call these functions and hold no SQL of their own.
 */
import type { Kysely } from 'kysely';
import type { SpeechScore } from '../../src/api/contract';
// Not the analysis index: it loads the emotion model, which the producer never needs.
import { FEATURE_NAMES } from '../../src/audio/analysis/feature-names';
import { updateSpeakerStats } from '../../src/audio/analysis/speaker-stats';
import type { SpeakerStats } from '../../src/audio/analysis/types';
import type { Database } from '../db/schema';
import { nowIso, sha256Hex } from '../lib/ids';
import type { MediaStorage } from '../storage/media-storage';
import { type Attempts, type ParsedTake, parseTake, pickAttempts } from './attempts';
import { refreshRunDubbing, runTakes, touchRun } from './runs';

/**
 * Row id of a take. With a client takeId the id is derived from (user, takeId), so a retried upload
 * finds its first result and two users can never collide on an id.
 */
export function takeRowId(userId: string, takeId: string): string {
  return sha256Hex(`${userId}:${takeId}`).slice(0, 32);
}

/**
 * Where a run's media live: its takes' audio now, later other media made from the run. Deleting the
 * prefix deletes them all; `takes/<userId>/` stays the learner's own prefix.
 */
export const runMediaPrefix = (userId: string, runId: string) => `takes/${userId}/${runId}/`;

export const takeAudioKey = (userId: string, runId: string, rowId: string) =>
  `${runMediaPrefix(userId, runId)}${rowId}.wav`;

/** The take with the actor's melody, beside the take's own audio under the run's prefix. */
export const melodyKeyOf = (audioKey: string) => audioKey.replace(/\.wav$/, '.melody.wav');
/** The take audio key a melody key belongs to (null for any other key). */
export const audioKeyOfMelody = (key: string): string | null =>
  key.endsWith('.melody.wav') ? key.replace(/\.melody\.wav$/, '.wav') : null;

export async function findStoredTake(
  db: Kysely<Database>,
  rowId: string,
  userId: string,
): Promise<SpeechScore | null> {
  const row = await db
    .selectFrom('takes')
    .selectAll()
    .where('id', '=', rowId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? (parseTake(row)?.score ?? null) : null;
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
  runId: string;
  subtitleId: string;
  attempt: number;
  /** The wav to store at the take's key, or null when it is there already (queued scoring). */
  audio: Buffer | null;
  score: SpeechScore;
  /** Utterance features of this take; folded into the learner's running statistics. */
  features: number[] | null;
}

/**
 * Stores the audio (unless stored already), then the take row and the learner's updated statistics
 * in one transaction. If the row cannot be written the audio this call stored is removed again, so
 * storage never holds orphans; audio stored before the call stays for the job's next attempt.
 * Returns false when a concurrent retry with the same id stored first.
 */
export async function storeTake(
  db: Kysely<Database>,
  storage: MediaStorage,
  take: NewTake,
): Promise<boolean> {
  const key = takeAudioKey(take.userId, take.runId, take.rowId);
  if (take.audio) await storage.put(key, take.audio);
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
          speech: take.score.quality.speechDetected ? 1 : 0,
          created_at: take.score.createdAt,
          run_id: take.runId,
        })
        .execute();
      await touchRun(trx, take.runId, take.score.createdAt);
      await refreshRunDubbing(trx, take.runId);
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
    if (take.audio) await storage.delete(key).catch(() => undefined);
    throw err;
  }
}

/**
 * Whether a line of a run has used its attempts (the spec's first and second attempt per line,
 * `TAKES_ATTEMPTS_PER_LINE`): it holds that many takes with speech. A take in which no speech was
 * heard asks the learner to record again (src/audio/scoring/aggregate.ts), so it uses none up.
 */
export async function attemptsUsed(
  db: Kysely<Database>,
  runId: string,
  subtitleId: string,
  attemptsPerLine: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('takes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('run_id', '=', runId)
    .where('subtitle_id', '=', subtitleId)
    .where('speech', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0) >= attemptsPerLine;
}

/** First and second attempt per line of a run (the rule of ./attempts.ts). */
export async function runAttempts(
  db: Kysely<Database>,
  runId: string,
): Promise<Map<string, Attempts<ParsedTake>>> {
  return pickAttempts(await runTakes(db, runId));
}
