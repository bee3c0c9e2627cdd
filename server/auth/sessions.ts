import type { Expression, Kysely, QueryCreator } from 'kysely';
import type { User } from '../../src/api/contract';
import { prepared } from '../db/prepared';
import { LIMITS } from './login-limiter';
import type { Database, SessionKind } from '../db/schema';
import { isoIn, newToken, nowIso, sha256Hex } from '../lib/ids';

/** 7 days, matching the user-token cookie (src/api/token.ts). */
export const SESSION_TTL_SECONDS = 604_800;

/**
 * Creates a session and returns the token. Only its sha256 is stored. `endsWith`: the sha256 of a
 * phone session that ends when this one does (a kiosk signed in by that phone's QR confirm).
 */
export async function createSession(
  db: Kysely<Database>,
  userId: string,
  opts: { kind?: SessionKind; endsWith?: string | null } = {},
): Promise<string> {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      created_at: nowIso(),
      expires_at: isoIn(SESSION_TTL_SECONDS * 1000),
      kind: opts.kind ?? 'web',
      ends_session_hash: opts.endsWith ?? null,
    })
    .execute();
  return token;
}

/**
 * A token's session and its learner, by the token's SHA-256, for a PostgreSQL statement that checks
 * the session itself in the same round trip as what it reads (server/takes/runs.ts,
 * `runsByFilmOfSession`; server/films/answers.ts).
 */
export const sessionUserQuery = (db: QueryCreator<Database>, tokenHash: string | Expression<string>) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.account', 'users.nickname', 'sessions.expires_at', 'sessions.kind'])
    .where('sessions.token_hash', '=', tokenHash);

/**
 * The same session read as a statement of its own: one table in its FROM, the learner's columns read
 * by key in subqueries. SQLite plans a join whose WHERE has a bound value again on every run (12 µs a
 * run as a join, 3 µs as this one at load 21; docs/performance.md, "The film list against its floor").
 * A session never outlives its user (`on delete cascade`).
 */
const sessionUser = prepared((db, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .select((eb) => {
      const user = eb.selectFrom('users').whereRef('users.id', '=', 'sessions.user_id');
      return [
        'sessions.user_id as id',
        user.select('users.account').$asScalar().$notNull().as('account'),
        user.select('users.nickname').$asScalar().$notNull().as('nickname'),
        'sessions.expires_at',
        'sessions.kind',
      ];
    })
    .where('sessions.token_hash', '=', tokenHash),
);

/** The learner of a session row, or null when there is none or it has expired. */
export function liveSessionUser(
  row: { id: string; account: string; nickname: string; expires_at: string } | undefined,
): User | null {
  if (!row || row.expires_at <= nowIso()) return null;
  return { id: row.id, account: row.account, nickname: row.nickname };
}

/** The user a token belongs to, or null when it is unknown or expired. */
export async function findSessionUser(db: Kysely<Database>, token: string): Promise<User | null> {
  const [row] = await sessionUser(db, sha256Hex(token));
  return liveSessionUser(row);
}

/** The session of a token with its kind, or null when it is unknown or expired. */
export async function findSession(
  db: Kysely<Database>,
  token: string,
): Promise<{ user: User; kind: SessionKind; tokenHash: string } | null> {
  const tokenHash = sha256Hex(token);
  const [row] = await sessionUser(db, tokenHash);
  const user = liveSessionUser(row);
  return user && { user, kind: row.kind, tokenHash };
}

/**
 * Ends a session (logout): its token is refused from now on, by every instance (the row is gone).
 * A kiosk session signed in by a phone's QR confirm takes that phone's session with it, unless the
 * learner chose to stay signed in on the phone (kind phone-kept).
 */
export async function revokeSession(db: Kysely<Database>, token: string): Promise<void> {
  const tokenHash = sha256Hex(token);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sessions')
      .select('ends_session_hash')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row?.ends_session_hash) {
      await trx
        .deleteFrom('sessions')
        .where('token_hash', '=', row.ends_session_hash)
        .where('kind', '=', 'phone')
        .execute();
    }
    await trx.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  });
}

/** Sign out everywhere: every session of the user ends, on every device and instance. */
export async function revokeAllSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Housekeeping (at start and hourly): drops expired sessions, QR requests older than a day and
 * failure counters whose window and lock have both passed, and sign-in addresses no longer known.
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
  const knownSince = new Date(Date.now() - LIMITS.knownForMs).toISOString();
  await db.deleteFrom('login_addresses').where('last_success_at', '<=', knownSince).execute();
}
