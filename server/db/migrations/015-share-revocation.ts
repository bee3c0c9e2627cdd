import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * A learner may end the share links of a run before their 7 days (server/reports/share-link.ts):
 * links issued before `shares_revoked_at` no longer open.
 */
export const shareRevocation: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('runs').addColumn('shares_revoked_at', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('runs').dropColumn('shares_revoked_at').execute();
  },
};
