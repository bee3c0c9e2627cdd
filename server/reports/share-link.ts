import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { sharedSecret } from '../lib/settings';

/** The settings key of the HMAC secret that signs share links (shared by every instance). */
const SHARE_SECRET_KEY = 'report_share_secret';

export const shareSecret = (db: Kysely<Database>): Promise<Buffer> => sharedSecret(db, SHARE_SECRET_KEY);

/** Share links live 7 days. */
export const SHARE_TTL_MS = 7 * 24 * 3600 * 1000;

export type ShareCheck =
  | { ok: true; recordId: string; expiresAt: number }
  | { ok: false; reason: 'tampered' | 'expired' };

const sign = (secret: Buffer, payload: string) =>
  crypto.createHmac('sha256', secret).update(payload).digest('base64url');

/** `<payload>.<mac>`: payload is base64url JSON {r: record id, e: expiry in epoch ms}; mac is HMAC-SHA256. */
export function createShareToken(
  secret: Buffer,
  recordId: string,
  now = Date.now(),
): { token: string; expiresAt: number } {
  const expiresAt = now + SHARE_TTL_MS;
  const payload = Buffer.from(JSON.stringify({ r: recordId, e: expiresAt })).toString('base64url');
  return { token: `${payload}.${sign(secret, payload)}`, expiresAt };
}

export function verifyShareToken(secret: Buffer, token: string, now = Date.now()): ShareCheck {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return { ok: false, reason: 'tampered' };
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'tampered' };
  }
  let body: { r?: unknown; e?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'tampered' };
  }
  if (typeof body.r !== 'string' || typeof body.e !== 'number') return { ok: false, reason: 'tampered' };
  if (body.e <= now) return { ok: false, reason: 'expired' };
  return { ok: true, recordId: body.r, expiresAt: body.e };
}

/**
 * Whether the learner ended this link: links of a run issued before its `shares_revoked_at` (a
 * link's issue time is its expiry less SHARE_TTL_MS) no longer open; one issued since does.
 */
export function shareRevoked(expiresAt: number, revokedAt: string | null): boolean {
  return revokedAt !== null && expiresAt - SHARE_TTL_MS < Date.parse(revokedAt);
}
