import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * A random secret stored once in the settings table and shared by every instance. The first
 * instance to ask creates it; a concurrent creator loses the insert and reads the winner's value.
 */
export async function sharedSecret(db: Kysely<Database>, key: string): Promise<Buffer> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return Buffer.from(existing.value, 'base64');
  await db
    .insertInto('settings')
    .values({ key, value: crypto.randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}
