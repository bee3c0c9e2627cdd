import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * Whether speech was detected in a take (its score's `quality.speechDetected`), as a column: the
 * run figures read it without parsing every result (src/audio/scoring/aggregate.ts: a take without
 * speech is not a score). Existing rows are filled from their stored results.
 */
export const takeSpeech: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('takes')
      .addColumn('speech', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    // Only silent takes need a write; read in pages so a large table is never held in memory at once.
    const PAGE = 500;
    let after = '';
    for (;;) {
      const rows: { id: string; result: string }[] = await db
        .selectFrom('takes')
        .select(['id', 'result'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) break;
      const silent = rows
        .filter((r) => {
          try {
            return (
              (JSON.parse(r.result) as { quality?: { speechDetected?: unknown } }).quality?.speechDetected ===
              false
            );
          } catch {
            return false;
          }
        })
        .map((r) => r.id);
      if (silent.length) await db.updateTable('takes').set({ speech: 0 }).where('id', 'in', silent).execute();
      after = rows[rows.length - 1].id;
    }
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('takes').dropColumn('speech').execute();
  },
};
