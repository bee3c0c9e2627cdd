/**
 * Storage bounds on takes (docs/architecture.md, "Takes: storage bounds"): per run and line the
 * first and latest take (the report's) and a few recent retakes are kept, older retakes deleted
 * with their audio; a daily upload limit per learner (dubbed-video renders count in it too); each
 * learner's most recent renders kept; orphans cleaned at start. Part of the takes
 * repository: the SQL lives here.
 */
import { type Kysely, sql } from 'kysely';
import { Code } from '../../src/api/contract';
import { withKeyLock } from '../db/key-lock';
import type { Database } from '../db/schema';
import { catalogueError } from '../lib/app-error';
import type { MediaStorage } from '../storage/media-storage';
import { orderAttempts } from './attempts';
import { audioKeyOfMelody, melodyKeyOf } from './repository';
import { refreshRunDubbing } from './runs';

/**
 * Keeps a line's first and latest take in the run plus the `retakesKept` most recent others; deletes
 * the rest, rows first (one statement), then their audio, so a crash in between leaves at most
 * orphan files, which the start-up cleaning removes. Returns the number of takes deleted.
 */
export async function pruneLine(
  db: Kysely<Database>,
  storage: MediaStorage,
  runId: string,
  subtitleId: string,
  retakesKept: number,
): Promise<number> {
  const rows = await db
    .selectFrom('takes')
    .select(['id', 'subtitle_id', 'attempt', 'created_at', 'audio_key'])
    .where('run_id', '=', runId)
    .where('subtitle_id', '=', subtitleId)
    .execute();
  const line = orderAttempts(rows).get(subtitleId);
  if (!line) return 0;
  // Between first and latest, newest last: keep the last `retakesKept`.
  const middle = line.all.slice(1, -1);
  const doomed = middle.slice(0, Math.max(0, middle.length - retakesKept));
  if (doomed.length === 0) return 0;
  // The run's dubbing figures read only each line's first and latest take: they stay as they are.
  await db
    .deleteFrom('takes')
    .where(
      'id',
      'in',
      doomed.map((t) => t.id),
    )
    .execute();
  for (const t of doomed) {
    await storage.delete(t.audio_key).catch(() => undefined);
    await storage.delete(melodyKeyOf(t.audio_key)).catch(() => undefined);
  }
  return doomed.length;
}

const HOUR_MS = 3_600_000;
const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();

type Db = Kysely<Database>;

/** Bytes the learner stored in the last 24 hours (takes and dubbed-video renders). */
async function usedInDay(db: Db, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('upload_usage')
    .select((eb) => eb.fn.sum<number | string>('bytes').as('total'))
    .where('user_id', '=', userId)
    .where('hour', '>', hourOf(now - 24 * HOUR_MS))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

async function addUsage(db: Db, userId: string, bytes: number, now: number): Promise<void> {
  await db
    .insertInto('upload_usage')
    .values({ user_id: userId, hour: hourOf(now), bytes })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'hour'])
        .doUpdateSet({ bytes: sql<number>`upload_usage.bytes + excluded.bytes` }),
    )
    .execute();
}

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

/**
 * Counts an upload against the learner's 24-hour limit. Check and count happen under one lock per
 * learner (server/db/key-lock.ts), so concurrent uploads are let through exactly up to the limit on
 * both engines. Refused uploads count nothing. `limit` 0 = no limit.
 */
export async function reserveUpload(
  db: Db,
  userId: string,
  bytes: number,
  limit: number,
  now = Date.now(),
): Promise<void> {
  if (limit <= 0) return;
  const used = await withKeyLock(db, `upload-usage:${userId}`, async (trx) => {
    const total = await usedInDay(trx, userId, now);
    if (total + bytes > limit) return total;
    await addUsage(trx, userId, bytes, now);
    return null;
  });
  if (used === null) return;
  throw catalogueError(Code.RATE_LIMITED, 'upload.dailyLimit', {
    values: { mb: String(mb(limit)) },
    data: { limitBytes: limit, usedBytes: used, retryAfterSeconds: 3600 },
    status: 429,
  });
}

/**
 * A dubbed-video render counts in the same 24-hour limit as the takes: one is queued only while the
 * learner has room left (its size is known once rendered, so the last render may pass the limit by
 * its own size). `limit` 0 = no limit.
 */
export async function checkRenderRoom(
  db: Db,
  userId: string,
  limit: number,
  now = Date.now(),
): Promise<void> {
  if (limit <= 0) return;
  const used = await usedInDay(db, userId, now);
  if (used < limit) return;
  throw catalogueError(Code.RATE_LIMITED, 'render.storageUsed', {
    values: { mb: String(mb(limit)) },
    data: { limitBytes: limit, usedBytes: used, retryAfterSeconds: 3600 },
    status: 429,
  });
}

/** Counts a finished render's bytes in the learner's 24-hour limit (under the same lock as uploads). */
export async function countRender(db: Db, userId: string, bytes: number, now = Date.now()): Promise<void> {
  await withKeyLock(db, `upload-usage:${userId}`, (trx) => addUsage(trx, userId, bytes, now));
}

/**
 * Keeps the learner's `kept` most recent ready renders and deletes the older ones, rows first, then
 * their files (a crash in between leaves orphan files, which cleanOrphanTakes removes). A report whose
 * render was deleted queues a new one when it is opened. Returns the number deleted.
 */
export async function pruneRenders(
  db: Db,
  storage: MediaStorage,
  userId: string,
  kept: number,
): Promise<number> {
  const ready = await db
    .selectFrom('dub_renders')
    .select(['run_id', 'media_key'])
    .where('user_id', '=', userId)
    .where('status', '=', 'ready')
    .orderBy('updated_at', 'desc')
    .orderBy('run_id', 'desc')
    .execute();
  const doomed = ready.slice(kept);
  if (doomed.length === 0) return 0;
  await db
    .deleteFrom('dub_renders')
    .where('status', '=', 'ready')
    .where(
      'run_id',
      'in',
      doomed.map((r) => r.run_id),
    )
    .execute();
  for (const r of doomed) if (r.media_key) await storage.delete(r.media_key).catch(() => undefined);
  return doomed.length;
}

/** Drops usage rows older than a day (housekeeping). */
export async function deleteOldUsage(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('upload_usage')
    .where('hour', '<=', hourOf(now - 24 * HOUR_MS))
    .execute();
}

/**
 * Start-up cleaning: take audio (or a dubbed-video render) without a row (a crash between writing the file and its row) and
 * rows whose audio is gone are deleted. Only things older than `graceMs` are touched, so a take
 * another instance is storing right now is left alone.
 */
export async function cleanOrphanTakes(
  db: Kysely<Database>,
  storage: MediaStorage,
  graceMs = 10 * 60_000,
  now = Date.now(),
): Promise<{ files: number; rows: number }> {
  const cutoffIso = new Date(now - graceMs).toISOString();
  let files = 0;
  let batch: string[] = [];
  const sweep = async () => {
    // A run's prefix also holds its rendered dubbed video (server/renders/dub-video.ts).
    // A take's melody version (`<take>.melody.wav`) belongs to the take's row.
    const audioKeys = batch.map((key) => audioKeyOfMelody(key) ?? key);
    const [takes, renders] = await Promise.all([
      db.selectFrom('takes').select('audio_key').where('audio_key', 'in', audioKeys).execute(),
      db.selectFrom('dub_renders').select('media_key').where('media_key', 'in', batch).execute(),
    ]);
    const known = new Set([...takes.map((r) => r.audio_key), ...renders.map((r) => r.media_key)]);
    for (const key of batch) {
      if (known.has(key) || known.has(audioKeyOfMelody(key) ?? '')) continue;
      await storage.delete(key);
      files += 1;
    }
    batch = [];
  };
  for await (const { key, mtimeMs } of storage.list('takes')) {
    if (mtimeMs > now - graceMs) continue;
    batch.push(key);
    if (batch.length >= 500) await sweep();
  }
  if (batch.length) await sweep();

  let rows = 0;
  const old = await db
    .selectFrom('takes')
    .select(['id', 'audio_key', 'run_id'])
    .where('created_at', '<', cutoffIso)
    .execute();
  const missing = [];
  for (const t of old) if (!(await storage.stat(t.audio_key))) missing.push(t);
  for (let i = 0; i < missing.length; i += 500) {
    const gone = missing.slice(i, i + 500);
    // The runs' dubbing figures follow their takes, in the same transaction.
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('takes')
        .where(
          'id',
          'in',
          gone.map((t) => t.id),
        )
        .execute();
      for (const runId of new Set(gone.map((t) => t.run_id)))
        if (runId !== null) await refreshRunDubbing(trx, runId);
    });
    rows += gone.length;
  }
  return { files, rows };
}
