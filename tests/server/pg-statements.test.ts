import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type DbHandle } from '../../server/db/connect';
import { createTestSchema, dropTestSchema, postgresAvailable, testDatabaseUrl } from '../support/server';

const PG_UP = await postgresAvailable();

// PostgreSQL only: SQLite statements are reused by better-sqlite3 (server/db/connect.ts).
(PG_UP || process.env.CI === 'true' ? describe : describe.skip)('PostgreSQL prepared statements', () => {
  let handle: DbHandle;
  let schema: string;
  let dataDir: string;
  beforeAll(async () => {
    schema = await createTestSchema();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-pgstmt-'));
    handle = connectDb({ dataDir, databaseUrl: testDatabaseUrl(), databaseSchema: schema });
    // One table per test, so they run in any order (the second one alters its table).
    for (const t of ['things', 'changing']) {
      await sql`create table ${sql.table(t)} (id text primary key, a text not null)`.execute(handle.db);
      await sql`insert into ${sql.table(t)} values ('t1', 'x')`.execute(handle.db);
    }
  });
  afterAll(async () => {
    await handle?.db.destroy();
    await dropTestSchema(schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // A table made by this test, not in the app's schema.
  type Row = { id: string; a: string; b?: string | null };
  type Things = { things: Row; changing: Row };
  const db = () => handle.db as unknown as Kysely<Things>;

  it('a statement with parameters is prepared once per connection and reused', async () => {
    await db()
      .connection()
      .execute(async (c) => {
        const find = () => c.selectFrom('things').selectAll().where('id', '=', 't1').execute();
        expect(await find()).toEqual([{ id: 't1', a: 'x' }]);
        expect(await find()).toEqual([{ id: 't1', a: 'x' }]);
        const prepared = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements where statement like '%"things"%'`.execute(c);
        expect(prepared.rows.map((r) => r.statement)).toEqual(['select * from "things" where "id" = $1']);
      });
  });

  it('a table changed under a prepared `select *` (another instance migrated) is prepared again', async () => {
    await db()
      .connection()
      .execute(async (c) => {
        const find = () => c.selectFrom('changing').selectAll().where('id', '=', 't1').execute();
        expect(await find()).toEqual([{ id: 't1', a: 'x' }]);
        await sql`alter table changing add column b text`.execute(c);
        expect(await find()).toEqual([{ id: 't1', a: 'x', b: null }]);
      });
  });
});
