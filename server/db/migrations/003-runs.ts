import crypto from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

interface Event {
  kind: 'record' | 'take';
  id: string;
  userId: string;
  filmId: string;
  part: string;
  at: string;
}

interface OpenRun {
  id: string;
  userId: string;
  filmId: string;
  part: string;
  startedAt: string;
  updatedAt: string;
  answered: boolean;
  records: string[];
  takes: string[];
}

/**
 * Groups existing answers and takes into runs by replaying them in time order with the rule the
 * service applies live (server/takes/runs.ts): answers join the latest run of (learner, film, part)
 * while it has none, else start a run (its id is the record's, so links and ids given out before
 * keep working); a take joins the latest part-two run of its film, or starts one.
 */
export function groupIntoRuns(events: Event[]): OpenRun[] {
  const sorted = [...events].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  const latest = new Map<string, OpenRun>();
  const runs: OpenRun[] = [];
  for (const e of sorted) {
    const key = `${e.userId}\u0000${e.filmId}\u0000${e.part}`;
    let run = latest.get(key);
    if (e.kind === 'record' ? !run || run.answered : !run) {
      run = {
        id: e.kind === 'record' ? e.id : crypto.randomUUID(),
        userId: e.userId,
        filmId: e.filmId,
        part: e.part,
        startedAt: e.at,
        updatedAt: e.at,
        answered: false,
        records: [],
        takes: [],
      };
      latest.set(key, run);
      runs.push(run);
    }
    if (e.kind === 'record') {
      run!.answered = true;
      run!.records.push(e.id);
    } else run!.takes.push(e.id);
    run!.updatedAt = e.at;
  }
  return runs;
}

const CHUNK = 200;

async function setRunId(db: AnyDb, table: string, runId: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db
      .updateTable(table)
      .set({ run_id: runId })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
  }
}

/** Training runs: a run holds one pass's answers and takes (docs/api.md, "Runs"). */
export const runs: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('film_id', 'text', (c) => c.notNull())
      .addColumn('part', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('runs_user_film_idx')
      .on('runs')
      .columns(['user_id', 'part', 'film_id', 'started_at', 'id'])
      .execute();
    await db.schema
      .createIndex('runs_user_part_idx')
      .on('runs')
      .columns(['user_id', 'part', 'updated_at', 'id'])
      .execute();
    await db.schema.alterTable('question_records').addColumn('run_id', 'text').execute();
    await db.schema.alterTable('takes').addColumn('run_id', 'text').execute();
    await db.schema.createIndex('question_records_run_idx').on('question_records').column('run_id').execute();
    await db.schema.createIndex('takes_run_idx').on('takes').columns(['run_id', 'subtitle_id']).execute();

    const records = await db
      .selectFrom('question_records')
      .select(['id', 'user_id', 'film_id', 'part', 'created_at'])
      .execute();
    const takes = await db.selectFrom('takes').select(['id', 'user_id', 'film_id', 'created_at']).execute();
    const events: Event[] = [
      ...records.map((r) => ({
        kind: 'record' as const,
        id: r.id,
        userId: r.user_id,
        filmId: r.film_id,
        part: r.part,
        at: r.created_at,
      })),
      ...takes.map((t) => ({
        kind: 'take' as const,
        id: t.id,
        userId: t.user_id,
        filmId: t.film_id,
        part: 'prpt',
        at: t.created_at,
      })),
    ];
    for (const run of groupIntoRuns(events)) {
      await db
        .insertInto('runs')
        .values({
          id: run.id,
          user_id: run.userId,
          film_id: run.filmId,
          part: run.part,
          started_at: run.startedAt,
          updated_at: run.updatedAt,
        })
        .execute();
      await setRunId(db, 'question_records', run.id, run.records);
      await setRunId(db, 'takes', run.id, run.takes);
    }
  },

  async down(db: AnyDb) {
    await db.schema.dropIndex('takes_run_idx').ifExists().execute();
    await db.schema.dropIndex('question_records_run_idx').ifExists().execute();
    await db.schema.alterTable('takes').dropColumn('run_id').execute();
    await db.schema.alterTable('question_records').dropColumn('run_id').execute();
    await db.schema.dropTable('runs').ifExists().execute();
  },
};
