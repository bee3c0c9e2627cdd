import crypto from 'node:crypto';
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
    withPreparedStatements(pool);
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
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached.database }) });
  sqliteOf.set(db, { connection: sqlite, prepare: cached.prepare });
  return { db, engine: 'sqlite' };
}

/** A SQLite database's one connection and its cached statements, as server/db/prepared.ts runs them. */
export interface SqliteDirect {
  connection: SQLite.Database;
  prepare: (source: string) => SQLite.Statement;
}

const sqliteOf = new WeakMap<Kysely<Database>, SqliteDirect>();

/** The connection behind a SQLite database opened by connectDb (not a transaction's: it is another object). */
export const sqliteDirect = (db: Kysely<Database>): SqliteDirect | undefined => sqliteOf.get(db);

/** How many distinct statements the cache keeps; the app has a few dozen, `in (…)` lists add more. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 with its prepared statements reused by SQL text. Kysely prepares every statement
 * on every call, and compiling SQL was ~13 % of a film list's CPU (docs/performance.md). Reuse is
 * safe: better-sqlite3 runs a statement synchronously to the end (Kysely streams nothing here).
 */
function withStatementCache(sqlite: SQLite.Database): {
  database: SQLite.Database;
  prepare: (source: string) => SQLite.Statement;
} {
  const cache = new Map<string, SQLite.Statement>();
  const compile = sqlite.prepare.bind(sqlite);
  // One function for every call (Kysely looks `prepare` up on each statement it runs).
  const prepare = (source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      stmt = compile(source);
      cache.set(source, stmt);
    }
    return stmt;
  };
  const database = new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { database, prepare };
}

/** How many SQL texts keep a statement name; past it the names start over (the app has a few dozen). */
const STATEMENT_NAMES = 1_000;

/**
 * pg runs a query that has a name as a prepared statement: parsed and planned once per connection,
 * then only bound and executed, a message less per round trip and no parse on the server. Kysely
 * sends every statement as text and parameters: each statement with parameters gets a name here,
 * derived from its SQL text (the same on every connection). Statements without parameters (begin,
 * commit, DDL) stay unnamed.
 */
function withPreparedStatements(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      if (names.size >= STATEMENT_NAMES) names.clear();
      name = `k${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } })
      .connection.parsedStatements;
    (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || values.length === 0)
        return query(...args);
      const name = nameOf(text);
      return query({ name, text, values }).catch(async (err: { code?: string }) => {
        // 0A000: a table changed under a prepared `select *` (a migration run by another instance);
        // PostgreSQL refuses the old plan, so the statement is prepared again, once.
        if (err?.code !== '0A000') throw err;
        try {
          await query(`DEALLOCATE "${name}"`);
        } catch {
          throw err;
        }
        delete parsed[name];
        return query({ name, text, values });
      });
    };
  });
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
