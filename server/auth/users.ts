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

/** The longest nickname, in characters: it is shown in one line on kiosks, reports and share pages. */
export const NICKNAME_MAX = 32;

/**
 * Characters a nickname may not hold: C0/C1 controls (line breaks, escape sequences for a terminal
 * that reads the logs) and the bidirectional marks, embeddings, overrides and isolates that reorder
 * the text around them (a name that shows as someone else's).
 */
const UNSAFE_NAME_CHARS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * The problem with a nickname, for the operator who runs users:add (Chinese first, English in
 * brackets, like the logs), or null when it is fine. Learners never choose a nickname.
 */
export function nicknameProblem(nickname: string): string | null {
  if (UNSAFE_NAME_CHARS.test(nickname))
    return '昵称含有控制字符或文字方向字符，请删除后重试 (the nickname contains control or text-direction characters)';
  const length = [...nickname].length;
  if (length > NICKNAME_MAX)
    return `昵称最多 ${NICKNAME_MAX} 个字符，当前 ${length} 个 (the nickname may be at most ${NICKNAME_MAX} characters; it has ${length})`;
  return null;
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
  const nickname = input.nickname?.trim() || account;
  const problem = nicknameProblem(nickname);
  if (problem) throw new Error(problem);
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirst();
  if (existing) throw new DuplicateAccountError(account);
  const user: User = { id: newId(), account, nickname };
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
