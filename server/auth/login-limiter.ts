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
 *   attempts at an account that already failed are refused unverified. Besides, an address gets
 *   `failuresPerMinute` failed attempts a minute (LOGIN_RATE_LIMIT_PER_MINUTE); beyond that its
 *   attempts are refused until the minute ends. Only failures count: a success gives its count back.
 * - A known address: an account's correct password from an address it signed in from within 30 days
 *   is never refused for the address's sake (busy or over its minute); only the account's own lock
 *   applies. So learners behind one school or kiosk address keep signing in however many wrong
 *   guesses came from it, and a classmate cannot aim the address's limits at a learner by name.
 *
 * An address's verified guesses are thus bounded by 20 + 2 per account name it never signed in
 * from + the account lock's 5 per account it did, per window, and by its failures per minute.
 *
 * Reserve, then verify: an attempt is counted under a per-key lock (server/db/key-lock.ts) before
 * the slow password check, so a burst of parallel guesses cannot all pass a lock read before any
 * failure was written. A success gives its reservation back: it clears the account's counter and
 * returns the address's counts, so successes never make an address busy.
 */
export const LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  perAccount: 5,
  perIp: 20,
  perAccountFromBusyIp: 2,
  minuteMs: 60_000,
  knownForMs: 30 * 86_400_000,
} as const;

const accountName = (account: string) => account.trim().toLowerCase();
const accountKey = (account: string) => `account:${accountName(account)}`;
const ipKey = (ip: string) => `ip:${ip}`;
const ipMinuteKey = (ip: string) => `ip-minute:${ip}`;
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

/** The address's failures this minute are spent: the rate limiter's own words (server/app.ts). */
function minuteError(windowStartedIso: string): AppError {
  const seconds = Math.max(
    1,
    Math.ceil((Date.parse(windowStartedIso) + LIMITS.minuteMs - Date.now()) / 1000),
  );
  return catalogueError(Code.RATE_LIMITED, 'request.tooMany', {
    values: { seconds: String(seconds) },
    data: { retryAfterSeconds: seconds },
    status: 429,
  });
}

/** One sign-in attempt's reservation, to hand back to `releaseOnSuccess`. */
export interface LoginReservation {
  account: string;
  ip: string;
}

export interface LoginLimits {
  /** Failed attempts an address gets per minute (LOGIN_RATE_LIMIT_PER_MINUTE). */
  failuresPerMinute: number;
}

async function readRows(trx: Transaction<Database>, keys: string[]) {
  return trx.selectFrom('login_failures').selectAll().where('key', 'in', keys).execute();
}

/** True when the account signed in from this address within LIMITS.knownForMs. */
async function knownAddress(trx: Transaction<Database>, account: string, ip: string, now: number) {
  const row = await trx
    .selectFrom('login_addresses')
    .select('last_success_at')
    .where('account', '=', accountName(account))
    .where('ip', '=', ip)
    .executeTakeFirst();
  return row !== undefined && Date.parse(row.last_success_at) + LIMITS.knownForMs > now;
}

/**
 * Counts one attempt against the account and the IP, atomically, or throws a 429 AppError when the
 * account is locked, or the address (unless the account knows it) is over its minute or busy with
 * the account already failed from it as often as a busy address allows (LIMITS). The attempt that
 * reaches the account limit sets the account's lock.
 */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  account: string,
  ip: string,
  limits: LoginLimits,
): Promise<LoginReservation> {
  const acct = accountKey(account);
  const addr = ipKey(ip);
  const minute = ipMinuteKey(ip);
  await withKeyLocks(db, [lockName(acct), lockName(addr)], async (trx) => {
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    const rows = new Map((await readRows(trx, [acct, addr, minute])).map((r) => [r.key, r]));
    const inWindow = (key: string, windowMs: number) => {
      const row = rows.get(key);
      return row && Date.parse(row.window_started_at) + windowMs >= now ? row : null;
    };
    const accountRow = rows.get(acct);
    if (accountRow?.locked_until && accountRow.locked_until > nowIso)
      throw lockedError(accountRow.locked_until);
    const accountNow = inWindow(acct, LIMITS.windowMs);
    const ipNow = inWindow(addr, LIMITS.windowMs);
    const minuteNow = inWindow(minute, LIMITS.minuteMs);
    const known = await knownAddress(trx, account, ip, now);
    if (!known && minuteNow && minuteNow.count >= limits.failuresPerMinute)
      throw minuteError(minuteNow.window_started_at);
    if (
      !known &&
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

/**
 * A successful sign-in clears the account's counter, hands the IP's reserved count back and
 * remembers the address for the account.
 */
export async function releaseOnSuccess(db: Kysely<Database>, r: LoginReservation): Promise<void> {
  const account = accountKey(r.account);
  const ip = ipKey(r.ip);
  await withKeyLocks(db, [lockName(account), lockName(ip)], async (trx) => {
    await trx.deleteFrom('login_failures').where('key', '=', account).execute();
    const row = (await readRows(trx, [ip]))[0];
    if (row) {
      const count = Math.max(0, row.count - 1);
      await trx.updateTable('login_failures').set({ count }).where('key', '=', ip).execute();
    }
    const known = { account: accountName(r.account), ip: r.ip, last_success_at: new Date().toISOString() };
    await trx
      .insertInto('login_addresses')
      .values(known)
      .onConflict((oc) =>
        oc.columns(['account', 'ip']).doUpdateSet({ last_success_at: known.last_success_at }),
      )
      .execute();
  });
}

/**
 * A failed sign-in counts in its address's failures this minute. Counted once the password was
 * checked (not reserved before), so parallel sign-ins that succeed never use the minute up; the
 * 15-minute limits above are the ones reserved first.
 */
export async function recordFailure(db: Kysely<Database>, r: LoginReservation): Promise<void> {
  const key = ipMinuteKey(r.ip);
  await withKeyLocks(db, [lockName(ipKey(r.ip))], async (trx) => {
    const now = Date.now();
    const row = (await readRows(trx, [key]))[0];
    const current = row && Date.parse(row.window_started_at) + LIMITS.minuteMs >= now ? row : null;
    const values = {
      key,
      count: (current?.count ?? 0) + 1,
      window_started_at: current ? current.window_started_at : new Date(now).toISOString(),
      locked_until: null,
    };
    await trx
      .insertInto('login_failures')
      .values(values)
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
  });
}
