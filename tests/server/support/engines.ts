import pg from 'pg';
import { describe } from 'vitest';
import { type TestEngine, testDatabaseUrl } from '../../support/server';

let pgAvailable: Promise<boolean> | null = null;

/** True when PostgreSQL answers at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). */
export function postgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl(), connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgAvailable;
}

// Top-level await: vitest collects describe blocks synchronously, so availability is settled first.
const PG_UP = await postgresAvailable();
const IN_CI = process.env.CI === 'true';
if (!PG_UP && !IN_CI) {
  console.warn(
    `\n[engines] PostgreSQL is not answering at ${testDatabaseUrl()}: the PostgreSQL half of the server ` +
      'tests is SKIPPED. Start PostgreSQL (or set TEST_DATABASE_URL) to run it.\n',
  );
}

/**
 * Runs the same describe block on SQLite (always) and PostgreSQL. Without a PostgreSQL server the
 * PostgreSQL half is skipped with a message, except under CI=true where it runs and fails.
 */
export function describeEngines(name: string, body: (engine: TestEngine) => void): void {
  describe(`${name} [sqlite]`, () => body('sqlite'));
  const skip = !PG_UP && !IN_CI;
  (skip ? describe.skip : describe)(`${name} [postgres]`, () => body('postgres'));
}
