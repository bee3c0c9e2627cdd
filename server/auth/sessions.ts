import type { Kysely } from 'kysely';
import type { User } from '../../src/api/contract';
import { prepared } from '../db/prepared';
import type { Database } from '../db/schema';
import { isoIn, newToken, nowIso, sha256Hex } from '../lib/ids';

/** 7 days, matching the user-token cookie (src/api/token.ts). */
export const SESSION_TTL_SECONDS = 604_800;

/** Creates a session and returns the token. Only its sha256 is stored. */
export async function createSession(db: Kysely<Database>, userId: string): Promise<string> {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      created_at: nowIso(),
      expires_at: isoIn(SESSION_TTL_SECONDS * 1000),
    })
    .execute();
  return token;
}

const sessionUser = prepared((db, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.account', 'users.nickname', 'sessions.expires_at'])
    .where('sessions.token_hash', '=', tokenHash),
);

/** The user a token belongs to, or null when it is unknown or expired. */
export async function findSessionUser(db: Kysely<Database>, token: string): Promise<User | null> {
  const [row] = await sessionUser(db, sha256Hex(token));
  if (!row || row.expires_at <= nowIso()) return null;
  return { id: row.id, account: row.account, nickname: row.nickname };
}

/** Ends a session (logout): its token is refused from now on, by every instance (the row is gone). */
export async function revokeSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256Hex(token)).execute();
}

/**
 * Housekeeping (at start and hourly): drops expired sessions, QR requests older than a day and
 * failure counters whose window and lock have both passed.
 */
export async function deleteExpiredSessions(db: Kysely<Database>): Promise<void> {
  const now = nowIso();
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('qr_logins').where('expires_at', '<=', dayAgo).execute();
  await db
    .deleteFrom('login_failures')
    .where('window_started_at', '<=', dayAgo)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}
