import type { Kysely } from 'kysely';
import type { User } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { newId, nowIso } from '../lib/ids';
import { hashPassword } from './passwords';

export const DEMO_ACCOUNT = { account: 'demo', password: 'demo123456', nickname: '演示学员' } as const;

export class DuplicateAccountError extends Error {
  constructor(account: string) {
    super(`Account "${account}" already exists`);
  }
}

export async function createUser(
  db: Kysely<Database>,
  input: { account: string; password: string; nickname?: string },
): Promise<User> {
  const account = input.account.trim();
  if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(account)) {
    throw new Error('Account must be 1–64 letters, digits or _ . @ -');
  }
  if (input.password.length < 6 || input.password.length > 128) {
    throw new Error('Password must be 6–128 characters');
  }
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirst();
  if (existing) throw new DuplicateAccountError(account);
  const user: User = { id: newId(), account, nickname: input.nickname?.trim() || account };
  await db
    .insertInto('users')
    .values({ ...user, password_hash: await hashPassword(input.password), created_at: nowIso() })
    .execute();
  return user;
}

/** Creates the demo account when no user exists yet. Returns true when it was created. */
export async function seedDemoAccount(db: Kysely<Database>): Promise<boolean> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  try {
    await createUser(db, DEMO_ACCOUNT);
    return true;
  } catch (err) {
    // Another instance seeded it at the same moment.
    if (err instanceof DuplicateAccountError) return false;
    throw err;
  }
}
