import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { QrLoginState, UserInfo } from '../../../src/api/contract';
import type { Database, QrLoginsTable } from '../../db/schema';
import { isoIn, newToken, nowIso, sha256Hex } from '../../lib/ids';
import { issueUserInfo } from '../login';

/** A QR login request lives 2 minutes. */
export const QR_TTL_SECONDS = 120;

/** 128 random bits as 32 hex characters. */
export const newQrUuid = (): string => crypto.randomBytes(16).toString('hex');

/**
 * A new login request: its uuid (which travels in the QR code, so anyone who sees the screen has it)
 * and its pickup key (which only the requesting screen gets, in qr_url's answer; only its sha256 is
 * stored). The token is handed out only to a status poll that carries the key.
 */
export async function createQrLogin(db: Kysely<Database>): Promise<{ uuid: string; pickupKey: string }> {
  const uuid = newQrUuid();
  const pickupKey = newToken();
  await db
    .insertInto('qr_logins')
    .values({
      uuid,
      state: 'waiting',
      user_id: null,
      created_at: nowIso(),
      expires_at: isoIn(QR_TTL_SECONDS * 1000),
      scanned_at: null,
      confirmed_at: null,
      delivered_at: null,
      pickup_hash: sha256Hex(pickupKey),
      phone_session_hash: null,
    })
    .execute();
  return { uuid, pickupKey };
}

/** True when `pickupKey` is the key of this request (compared in constant time). */
export function holdsPickupKey(row: QrLoginsTable, pickupKey: string | undefined): boolean {
  if (!row.pickup_hash || !pickupKey) return false;
  const given = Buffer.from(sha256Hex(pickupKey), 'hex');
  const expected = Buffer.from(row.pickup_hash, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export async function findQrLogin(db: Kysely<Database>, uuid: string): Promise<QrLoginsTable | null> {
  return (await db.selectFrom('qr_logins').selectAll().where('uuid', '=', uuid).executeTakeFirst()) ?? null;
}

/** The state as the outside sees it: anything past its expiry is `expired`. */
export function effectiveState(row: QrLoginsTable | null): QrLoginState {
  if (!row) return 'unknown';
  if (row.expires_at <= nowIso()) return 'expired';
  return row.state;
}

/** Opening the confirm page marks a waiting request as scanned; true when it was waiting. */
export async function markScanned(db: Kysely<Database>, uuid: string): Promise<boolean> {
  const res = await db
    .updateTable('qr_logins')
    .set({ state: 'scanned', scanned_at: nowIso() })
    .where('uuid', '=', uuid)
    .where('state', '=', 'waiting')
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Confirms for a user; false when the request is no longer open (expired, cancelled, confirmed).
 * `phoneSessionHash`: the confirming phone's session, to end with the kiosk session delivered.
 */
export async function confirmQrLogin(
  db: Kysely<Database>,
  uuid: string,
  userId: string,
  phoneSessionHash: string | null = null,
): Promise<boolean> {
  const now = nowIso();
  const res = await db
    .updateTable('qr_logins')
    .set({
      state: 'confirmed',
      user_id: userId,
      confirmed_at: now,
      scanned_at: now,
      phone_session_hash: phoneSessionHash,
    })
    .where('uuid', '=', uuid)
    .where('state', 'in', ['waiting', 'scanned'])
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function cancelQrLogin(db: Kysely<Database>, uuid: string): Promise<boolean> {
  const res = await db
    .updateTable('qr_logins')
    .set({ state: 'cancelled' })
    .where('uuid', '=', uuid)
    .where('state', 'in', ['waiting', 'scanned'])
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Hands out the token of a confirmed request exactly once, and only to the screen holding its pickup
 * key: a poll without it neither gets nor uses up the token. The conditional update succeeds for one
 * poll only, even with several instances polling the same uuid. The session is created at delivery.
 */
export async function deliverOnce(
  db: Kysely<Database>,
  row: QrLoginsTable,
  pickupKey: string | undefined,
): Promise<UserInfo | null> {
  if (row.state !== 'confirmed' || row.delivered_at || !row.user_id) return null;
  if (!holdsPickupKey(row, pickupKey) || !row.pickup_hash) return null;
  const userId = row.user_id;
  return db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('qr_logins')
      .set({ delivered_at: nowIso() })
      .where('uuid', '=', row.uuid)
      .where('state', '=', 'confirmed')
      .where('delivered_at', 'is', null)
      .where('pickup_hash', '=', row.pickup_hash)
      .where('expires_at', '>', nowIso())
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    const user = await trx
      .selectFrom('users')
      .select(['id', 'account', 'nickname'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return issueUserInfo(trx, user, { endsWith: row.phone_session_hash });
  });
}
