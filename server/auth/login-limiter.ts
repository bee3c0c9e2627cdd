import type { Kysely } from 'kysely';
import { Code } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { AppError } from '../lib/app-error';
import { nowIso } from '../lib/ids';

/**
 * Failed-login limits, kept in the database so every instance sees the same counts.
 * Within a 15-minute window, 5 failures lock an account and 20 lock an IP address, for 15 minutes.
 */
export const LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  perAccount: 5,
  perIp: 20,
} as const;

const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
const ipKey = (ip: string) => `ip:${ip}`;

function lockedError(untilIso: string): AppError {
  const seconds = Math.max(1, Math.ceil((Date.parse(untilIso) - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    Code.RATE_LIMITED,
    `登录失败次数过多，请 ${minutes} 分钟后再试 (too many failed sign-ins; try again in ${minutes} min)`,
    429,
    { retryAfterSeconds: seconds },
  );
}

/** Throws a 429 AppError when the account or the IP is locked. */
export async function assertLoginAllowed(db: Kysely<Database>, account: string, ip: string): Promise<void> {
  const rows = await db
    .selectFrom('login_failures')
    .select(['key', 'locked_until'])
    .where('key', 'in', [accountKey(account), ipKey(ip)])
    .execute();
  const now = nowIso();
  const locked = rows
    .map((r) => r.locked_until)
    .filter((u): u is string => u !== null && u > now)
    .sort()
    .pop();
  if (locked) throw lockedError(locked);
}

async function bump(db: Kysely<Database>, key: string, limit: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = Date.now();
    const row = await trx.selectFrom('login_failures').selectAll().where('key', '=', key).executeTakeFirst();
    const fresh = !row || Date.parse(row.window_started_at) + LIMITS.windowMs < now;
    const count = fresh ? 1 : row.count + 1;
    const lockedUntil = count >= limit ? new Date(now + LIMITS.lockMs).toISOString() : null;
    const values = {
      key,
      count,
      window_started_at: fresh ? new Date(now).toISOString() : row.window_started_at,
      locked_until: lockedUntil,
    };
    await trx
      .insertInto('login_failures')
      .values(values)
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
  });
}

export async function recordLoginFailure(db: Kysely<Database>, account: string, ip: string): Promise<void> {
  await bump(db, accountKey(account), LIMITS.perAccount);
  await bump(db, ipKey(ip), LIMITS.perIp);
}

/** A successful sign-in clears the account's counter (the IP's stays: it may be guessing many accounts). */
export async function clearAccountFailures(db: Kysely<Database>, account: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', accountKey(account)).execute();
}
