import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * A phone that confirms a QR login gets its own session. It ends with the kiosk session it signed in
 * unless the learner chose to stay signed in on the phone: sessions.kind tells which, the kiosk
 * session names the phone session to end with it (ends_session_hash), and the QR request carries the
 * phone session from confirm to delivery (phone_session_hash). Existing sessions are web sessions.
 */
export const sessionLinks: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('sessions')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('web'))
      .execute();
    await db.schema.alterTable('sessions').addColumn('ends_session_hash', 'text').execute();
    await db.schema.alterTable('qr_logins').addColumn('phone_session_hash', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('qr_logins').dropColumn('phone_session_hash').execute();
    await db.schema.alterTable('sessions').dropColumn('ends_session_hash').execute();
    await db.schema.alterTable('sessions').dropColumn('kind').execute();
  },
};
