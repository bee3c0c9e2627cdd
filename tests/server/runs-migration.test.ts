import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDb, type DbHandle, migrateToLatest } from '../../server/db/connect';
import { migrationProvider } from '../../server/db/migrations';
import { testDatabaseUrl } from '../support/server';
import { describeEngines } from './support/engines';

async function onPostgres(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: testDatabaseUrl() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describeEngines('migration 003: existing answers and takes become runs', (engine) => {
  let handle: DbHandle;
  let dataDir: string;
  const schema = engine === 'postgres' ? `m_${crypto.randomBytes(6).toString('hex')}` : undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-migrate-'));
    if (schema) await onPostgres(`CREATE SCHEMA ${schema}`);
    handle = connectDb({
      dataDir,
      databaseUrl: schema ? testDatabaseUrl() : undefined,
      databaseSchema: schema,
    });
    const migrator = new Migrator({
      db: handle.db,
      provider: migrationProvider,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateTo('001-initial');
    if (error) throw error;
  });
  afterAll(async () => {
    await handle?.db.destroy();
    if (schema) await onPostgres(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the live rule in time order: answers start runs, takes join the latest, early takes start one', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the table has no run_id before the migration
    const db = handle.db as any;
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        account: 'u1',
        nickname: 'U',
        password_hash: 'x',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const record = (id: string, part: string, at: string) => ({
      id,
      user_id: 'u1',
      film_id: 'f',
      part,
      answers: '[]',
      results: '[]',
      score: 1,
      max_score: 2,
      duration_ms: null,
      created_at: at,
    });
    const take = (id: string, at: string, overall = 50) => ({
      id,
      user_id: 'u1',
      film_id: 'f',
      subtitle_id: 'f-1',
      attempt: 1,
      audio_key: `takes/u1/${id}.wav`,
      result: '{}',
      overall,
      created_at: at,
    });
    await db
      .insertInto('question_records')
      .values([
        record('r1', 'prpt', '2026-01-01T10:00:00.000Z'),
        record('r2', 'prpt', '2026-01-02T10:00:00.000Z'),
        record('p1', 'prpo', '2026-01-01T09:00:00.000Z'),
      ])
      .execute();
    await db
      .insertInto('takes')
      .values([
        take('t0', '2025-12-31T10:00:00.000Z'), // dubbed before any answers
        take('t1', '2026-01-01T10:05:00.000Z'),
        take('t2', '2026-01-02T10:05:00.000Z'),
        take('t3', '2026-01-02T10:06:00.000Z', 70),
      ])
      .execute();

    await migrateToLatest(handle.db, schema);

    const runs = await handle.db.selectFrom('runs').selectAll().orderBy('started_at').execute();
    expect(runs.map((r) => [r.part, r.started_at])).toEqual([
      ['prpt', '2025-12-31T10:00:00.000Z'],
      ['prpo', '2026-01-01T09:00:00.000Z'],
      ['prpt', '2026-01-02T10:00:00.000Z'],
    ]);
    const [dubbedFirst, prpo, second] = runs;
    expect(prpo.id).toBe('p1');
    expect(second.id).toBe('r2');
    expect(second.updated_at).toBe('2026-01-02T10:06:00.000Z');
    const runOf = async (table: 'takes' | 'question_records') =>
      Object.fromEntries(
        (await handle.db.selectFrom(table).select(['id', 'run_id']).execute()).map((r) => [r.id, r.run_id]),
      );
    // r1 joins the run t0 started (it had no answers yet); t1 follows r1 into it.
    expect(await runOf('question_records')).toEqual({ r1: dubbedFirst.id, r2: 'r2', p1: 'p1' });
    expect(await runOf('takes')).toEqual({ t0: dubbedFirst.id, t1: dubbedFirst.id, t2: 'r2', t3: 'r2' });
    // Migration 008: what the film list reads per film, from the runs and answers so far.
    const progress = await handle.db.selectFrom('film_progress').selectAll().orderBy('part').execute();
    expect(progress.map((p) => ({ ...p, runs: Number(p.runs) }))).toEqual([
      { user_id: 'u1', part: 'prpo', film_id: 'f', runs: 1, best_ratio: 0.5 },
      { user_id: 'u1', part: 'prpt', film_id: 'f', runs: 2, best_ratio: 0.5 },
    ]);
    // Migration 016: each run's dubbing figures from its takes (a line's latest take counts).
    const dubbing = await handle.db
      .selectFrom('runs')
      .select(['id', 'dubbed_lines', 'dubbing_average'])
      .orderBy('started_at')
      .execute();
    expect(dubbing.map((r) => [r.id, Number(r.dubbed_lines), r.dubbing_average])).toEqual([
      [dubbedFirst.id, 1, 50],
      ['p1', 0, null],
      ['r2', 1, 70],
    ]);
  });
});
