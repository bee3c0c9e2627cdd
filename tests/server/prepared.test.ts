import { afterAll, beforeAll, expect, it } from 'vitest';
import { prepared } from '../../server/db/prepared';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';

describeEngines('prepared queries', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    const db = server.app.db;
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values(
        ['ada', 'bo', 'cy'].map((account, i) => ({
          id: `u-${account}`,
          account,
          nickname: account.toUpperCase(),
          password_hash: 'x',
          created_at: new Date(Date.parse(now) + i).toISOString(),
        })),
      )
      .execute();
  });
  afterAll(() => server?.close());

  const byAccount = prepared((db, account: string, limit: number) =>
    db
      .selectFrom('users')
      .select(['id', 'nickname'])
      .where('account', '=', account)
      .where('nickname', '!=', 'nobody')
      .limit(limit),
  );

  it('runs the query compiled once with each call’s own arguments, constants kept', async () => {
    const db = server.app.db;
    expect(await byAccount(db, 'ada', 5)).toEqual([{ id: 'u-ada', nickname: 'ADA' }]);
    expect(await byAccount(db, 'bo', 5)).toEqual([{ id: 'u-bo', nickname: 'BO' }]);
    expect(await byAccount(db, 'cy', 0)).toEqual([]);
    expect(await byAccount(db, "ada' or '1'='1", 5)).toEqual([]);
  });

  it('takes a list argument as an in (…) list, compiled once per length', async () => {
    const db = server.app.db;
    const some = prepared((db, ids: string[], not: string) =>
      db.selectFrom('users').select('id').where('id', 'in', ids).where('account', '!=', not).orderBy('id'),
    );
    expect(await some(db, ['u-ada', 'u-cy'], 'cy')).toEqual([{ id: 'u-ada' }]);
    expect(await some(db, ['u-bo'], 'cy')).toEqual([{ id: 'u-bo' }]);
    expect(await some(db, ['u-cy', 'u-bo', 'u-ada'], 'x')).toEqual([
      { id: 'u-ada' },
      { id: 'u-bo' },
      { id: 'u-cy' },
    ]);
  });

  it('works inside a transaction', async () => {
    const rows = await server.app.db.transaction().execute((trx) => byAccount(trx, 'cy', 1));
    expect(rows).toEqual([{ id: 'u-cy', nickname: 'CY' }]);
  });

  it('never reads the uncommitted rows of a transaction open meanwhile', async () => {
    const db = server.app.db;
    let inserted!: () => void;
    const insertedRow = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id: 'u-dee', account: 'dee', nickname: 'DEE', password_hash: 'x', created_at: 'now' })
          .execute();
        inserted();
        await gate;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await insertedRow;
    // Asked while the transaction holds its row (on SQLite, on the one connection the read shares).
    const read = byAccount(db, 'dee', 1);
    release();
    expect(await rolledBack).toBe('rolled back');
    expect(await read).toEqual([]);
  });

  it('refuses a build that does not use an argument as a plain value', async () => {
    const unused = prepared((db, _account: string) => db.selectFrom('users').select('id'));
    await expect(unused(server.app.db, 'ada')).rejects.toThrow(/not used as plain values/);
  });
});
