import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Engine = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  engine: Engine;
}

/** Opens the database the config points at: PostgreSQL when DATABASE_URL is set, else SQLite. */
export function connectDb(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseSchema'>): DbHandle {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // search_path per connection lets deployments (and each test server) live in their own schema.
      ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), engine: 'postgres' };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(config.dataDir, 'app.sqlite'));
  // WAL lets readers run while a write is in progress; busy_timeout rides out short write locks
  // when the producer and AI services share the file.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), engine: 'sqlite' };
}

/** Brings the schema up to date. Safe to run from several instances at once (Kysely takes a lock). */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const why = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${why}`);
  }
}
