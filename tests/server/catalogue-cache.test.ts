import { Kysely, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_TTL_MS, cached, clearCatalogue } from '../../server/films/catalogue-cache';
import type { Database } from '../../server/db/schema';

const newDb = () =>
  new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });

describe('catalogue cache', () => {
  it('loads a key once within the TTL and again after it', async () => {
    const db = newDb();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cached(db, 'k', load, 1_000)).toBe(1);
    expect(await cached(db, 'k', load, 1_000 + CATALOGUE_TTL_MS - 1)).toBe(1);
    expect(await cached(db, 'k', load, 1_000 + CATALOGUE_TTL_MS)).toBe(2);
  });

  it('keeps one cache per database and forgets everything on clear', async () => {
    const a = newDb();
    const b = newDb();
    expect(await cached(a, 'k', async () => 'a', 0)).toBe('a');
    expect(await cached(b, 'k', async () => 'b', 0)).toBe('b');
    clearCatalogue(a);
    expect(await cached(a, 'k', async () => 'a2', 1)).toBe('a2');
    expect(await cached(b, 'k', async () => 'b2', 1)).toBe('b');
  });

  it('shares one load between concurrent readers and does not keep a failed load', async () => {
    const db = newDb();
    let loads = 0;
    const failing = async () => {
      loads += 1;
      throw new Error('database busy');
    };
    const both = [cached(db, 'k', failing, 0), cached(db, 'k', failing, 0)];
    for (const p of both) await expect(p).rejects.toThrow('database busy');
    expect(loads).toBe(1);
    expect(await cached(db, 'k', async () => 'fresh', 0)).toBe('fresh');
  });
});
