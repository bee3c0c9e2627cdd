import type { Kysely, Transaction } from 'kysely';
import { Code } from '../../src/api/contract';
import { withKeyLocks } from '../db/key-lock';
import type { Database } from '../db/schema';
import { type AppError, catalogueError } from '../lib/app-error';

/**
 * Failed-login limits, kept in the database so every instance sees the same counts.
 * Within a 15-minute window, 5 attempts lock an account and 20 lock an IP address, for 15 minutes.
 *
 * Reserve, then verify: an attempt is counted under a per-key lock (server/db/key-lock.ts) before
 * the slow password check, so a burst of parallel guesses cannot all pass a lock read before any
 * failure was written. A success gives its reservation back: it clears the account's counter and
 * returns the IP's one count (many learners sign in from one kiosk or school address).
 */
export const LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  perAccount: 5,
  perIp: 20,
} as const;

const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
const ipKey = (ip: string) => `ip:${ip}`;
const lockName = (key: string) => `login-failures:${key}`;

function lockedError(untilIso: string): AppError {
  const seconds = Math.max(1, Math.ceil((Date.parse(untilIso) - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return catalogueError(Code.RATE_LIMITED, 'error.rateLimited', {
    values: { minutes },
    data: { retryAfterSeconds: seconds },
    status: 429,
  });
}

/** One sign-in attempt's reservation, to hand back to `releaseOnSuccess`. */
export interface LoginReservation {
  account: string;
  ip: string;
}

async function readRows(trx: Transaction<Database>, keys: string[]) {
  return trx.selectFrom('login_failures').selectAll().where('key', 'in', keys).execute();
}

/**
 * Counts one attempt against the account and the IP, atomically, or throws a 429 AppError when
 * either is locked. The attempt that reaches a limit sets the lock: later ones are refused unverified.
 */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  account: string,
  ip: string,
): Promise<LoginReservation> {
  const keys: Array<[string, number]> = [
    [accountKey(account), LIMITS.perAccount],
    [ipKey(ip), LIMITS.perIp],
  ];
  await withKeyLocks(
    db,
    keys.map(([k]) => lockName(k)),
    async (trx) => {
      const now = Date.now();
      const nowIso = new Date(now).toISOString();
      const rows = new Map(
        (
          await readRows(
            trx,
            keys.map(([k]) => k),
          )
        ).map((r) => [r.key, r]),
      );
      const locked = [...rows.values()]
        .map((r) => r.locked_until)
        .filter((u): u is string => u !== null && u > nowIso)
        .sort()
        .pop();
      if (locked) throw lockedError(locked);
      for (const [key, limit] of keys) {
        const row = rows.get(key);
        const fresh = !row || Date.parse(row.window_started_at) + LIMITS.windowMs < now;
        const count = fresh ? 1 : row.count + 1;
        const values = {
          key,
          count,
          window_started_at: fresh ? nowIso : row.window_started_at,
          locked_until: count >= limit ? new Date(now + LIMITS.lockMs).toISOString() : null,
        };
        await trx
          .insertInto('login_failures')
          .values(values)
          .onConflict((oc) => oc.column('key').doUpdateSet(values))
          .execute();
      }
    },
  );
  return { account, ip };
}

/** A successful sign-in clears the account's counter and hands the IP's reserved count back. */
export async function releaseOnSuccess(db: Kysely<Database>, r: LoginReservation): Promise<void> {
  const account = accountKey(r.account);
  const ip = ipKey(r.ip);
  await withKeyLocks(db, [lockName(account), lockName(ip)], async (trx) => {
    await trx.deleteFrom('login_failures').where('key', '=', account).execute();
    const row = (await readRows(trx, [ip]))[0];
    if (!row) return;
    const count = Math.max(0, row.count - 1);
    await trx
      .updateTable('login_failures')
      .set({ count, locked_until: count >= LIMITS.perIp ? row.locked_until : null })
      .where('key', '=', ip)
      .execute();
  });
}
