import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * What every learner reads alike (a page of a part's films with their counts; a film with its lines
 * and questions), kept per database for a few seconds. Films change only by import, which clears
 * this instance's cache (server/films/import.ts); other instances see an import within the TTL.
 * Without it, a film list cost 4 of its 9 statements (docs/performance.md, "The API").
 */
export const CATALOGUE_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

interface Entry {
  at: number;
  value: Promise<unknown>;
}

const caches = new WeakMap<Kysely<Database>, Map<string, Entry>>();

/** The cached value of `key`, loading it once when missing or older than the TTL (a failed load is not kept). */
export function cached<T>(
  db: Kysely<Database>,
  key: string,
  load: () => Promise<T>,
  now = Date.now(),
): Promise<T> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(key);
  if (hit && now - hit.at < CATALOGUE_TTL_MS) return hit.value as Promise<T>;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const value = load();
  const entry = { at: now, value };
  cache.set(key, entry);
  value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return value;
}

/** Forgets one key (a value that must not be kept, such as a film not found). */
export function forget(db: Kysely<Database>, key: string): void {
  caches.get(db)?.delete(key);
}

/** Forgets everything cached for this database (after an import). */
export function clearCatalogue(db: Kysely<Database>): void {
  caches.get(db)?.clear();
}
