import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * The addresses each account signed in from (server/auth/login-limiter.ts): a correct password from
 * one of them is never refused for its address's sake, so a classmate behind the same NAT cannot aim
 * the address's limits at a learner by name.
 */
export const loginAddresses: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('login_addresses')
      // The account name as the limiter keys it (trimmed, lower case): unknown names never get a row.
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('last_success_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('login_addresses_pk', ['account', 'ip'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('login_addresses').ifExists().execute();
  },
};
