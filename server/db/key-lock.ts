import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Runs `fn` in a transaction that holds a lock on `key`, so read-check-write sequences on one
 * learner's or account's counters cannot interleave. PostgreSQL: a transaction-scoped advisory
 * lock (other instances wait on it too). SQLite: Kysely's driver runs one transaction at a time on
 * its connection, and a write transaction across processes is serialised by the file lock.
 */
export function withKeyLock<T>(
  db: Kysely<Database>,
  key: string,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return withKeyLocks(db, [key], fn);
}

/**
 * `withKeyLock` for several keys at once (say an account and an IP address). The locks are taken in
 * sorted order, so two callers naming the same keys cannot deadlock.
 */
export async function withKeyLocks<T>(
  db: Kysely<Database>,
  keys: string[],
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const key of [...new Set(keys)].sort()) {
        await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
      }
    }
    return fn(trx);
  });
}
