import type { Kysely, Transaction } from 'kysely';
import { Code } from '../../src/api/contract';
import { withKeyLocks } from '../db/key-lock';
import type { Database } from '../db/schema';
import { type AppError, catalogueError } from '../lib/app-error';

/**
 * Failed-login limits, kept in the database so every instance sees the same counts.
 *
 * - An account: 5 failed attempts within 15 minutes lock it for 15 minutes, from every address.
 * - An address: its first 20 failed attempts within the window cost nothing more. After that the
 *   address is "busy" and every account gets at most 2 failed attempts from it per window; further
 *   attempts at an account that already failed are refused unverified. An address is never locked
 *   as a whole: learners behind one school or kiosk address who type their own password sign in
 *   however many wrong guesses came from that address. A busy address's guesses are bounded by
 *   20 + 2 per account name per window, and each account's lock still applies.
 *
 * Reserve, then verify: an attempt is counted under a per-key lock (server/db/key-lock.ts) before
 * the slow password check, so a burst of parallel guesses cannot all pass a lock read before any
 * failure was written. A success gives its reservation back: it clears the account's counter and
 * returns the address's one count, so successes never make an address busy.
 */
export const LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  perAccount: 5,
  perIp: 20,
  perAccountFromBusyIp: 2,
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
 * Counts one attempt against the account and the IP, atomically, or throws a 429 AppError when the
 * account is locked, or the address is busy and the account already failed from it as often as a
 * busy address allows (LIMITS). The attempt that reaches the account limit sets the account's lock.
 */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  account: string,
  ip: string,
): Promise<LoginReservation> {
  const acct = accountKey(account);
  const addr = ipKey(ip);
  await withKeyLocks(db, [lockName(acct), lockName(addr)], async (trx) => {
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    const rows = new Map((await readRows(trx, [acct, addr])).map((r) => [r.key, r]));
    const inWindow = (key: string) => {
      const row = rows.get(key);
      return row && Date.parse(row.window_started_at) + LIMITS.windowMs >= now ? row : null;
    };
    const accountRow = rows.get(acct);
    if (accountRow?.locked_until && accountRow.locked_until > nowIso)
      throw lockedError(accountRow.locked_until);
    const accountNow = inWindow(acct);
    const ipNow = inWindow(addr);
    if (
      ipNow &&
      ipNow.count >= LIMITS.perIp &&
      accountNow &&
      accountNow.count >= LIMITS.perAccountFromBusyIp
    ) {
      throw lockedError(new Date(Date.parse(accountNow.window_started_at) + LIMITS.windowMs).toISOString());
    }
    for (const [key, current, limit] of [
      [acct, accountNow, LIMITS.perAccount],
      [addr, ipNow, null],
    ] as const) {
      const count = (current?.count ?? 0) + 1;
      const values = {
        key,
        count,
        window_started_at: current ? current.window_started_at : nowIso,
        locked_until: limit !== null && count >= limit ? new Date(now + LIMITS.lockMs).toISOString() : null,
      };
      await trx
        .insertInto('login_failures')
        .values(values)
        .onConflict((oc) => oc.column('key').doUpdateSet(values))
        .execute();
    }
  });
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
    await trx.updateTable('login_failures').set({ count }).where('key', '=', ip).execute();
  });
}
