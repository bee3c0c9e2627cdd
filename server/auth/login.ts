import type { Kysely } from 'kysely';
import { Code, type User, type UserInfo } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { errorText } from '../../src/i18n/errors';
import { AppError } from '../lib/app-error';
import { said } from '../lib/words';
import { type LoginLimits, recordFailure, releaseOnSuccess, reserveLoginAttempt } from './login-limiter';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { createSession, SESSION_TTL_SECONDS } from './sessions';

export const BAD_CREDENTIALS_MSG = errorText('error.badCredentials', 'zh');

/**
 * Attempts at one account name in this process, one after another. The limiter counts an attempt
 * before it is verified, so ten parallel correct sign-ins (a learner tapping on two kiosks) would
 * otherwise fill the account's 5 and be refused as failures; in turn, each success clears the count
 * before the next attempt is counted. Guesses at one account gain nothing from running in parallel.
 */
const inFlight = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(account: string, fn: () => Promise<T>): Promise<T> {
  const key = account.trim().toLowerCase();
  const before = inFlight.get(key) ?? Promise.resolve();
  const mine = before.then(fn, fn);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  inFlight.set(key, settled);
  try {
    return await mine;
  } finally {
    if (inFlight.get(key) === settled) inFlight.delete(key);
  }
}

/**
 * Checks account and password under the failure limits. A wrong account and a wrong password get the
 * same message and take the same time (a dummy hash is verified for unknown accounts). The attempt
 * is counted before the password is verified (server/auth/login-limiter.ts).
 */
export function checkPassword(
  db: Kysely<Database>,
  account: string,
  password: string,
  ip: string,
  limits: LoginLimits,
): Promise<User> {
  return oneAtATime(account, async () => {
    const reservation = await reserveLoginAttempt(db, account, ip, limits);
    const row = await db
      .selectFrom('users')
      .select(['id', 'account', 'nickname', 'password_hash'])
      .where('account', '=', account.trim())
      .executeTakeFirst();
    const ok = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), password);
    if (!row || !ok) {
      await recordFailure(db, reservation);
      throw new AppError(Code.BAD_CREDENTIALS, BAD_CREDENTIALS_MSG, 401, null, said('error.badCredentials'));
    }
    await releaseOnSuccess(db, reservation);
    return { id: row.id, account: row.account, nickname: row.nickname };
  });
}

/** A new web session for the user; `endsWith`: a phone session to end with it (QR login). */
export async function issueUserInfo(
  db: Kysely<Database>,
  user: User,
  opts: { endsWith?: string | null } = {},
): Promise<UserInfo> {
  const token = await createSession(db, user.id, { endsWith: opts.endsWith });
  return { ...user, token, expiresIn: SESSION_TTL_SECONDS };
}
