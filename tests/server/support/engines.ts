import { describe } from 'vitest';
import { postgresAvailable, type TestEngine, testDatabaseUrl } from '../../support/server';

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
