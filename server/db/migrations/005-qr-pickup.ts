import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * The QR login's pickup key: qr_url gives the requesting screen a secret (only its sha256 is kept)
 * and only a status poll that carries it receives the token. Requests made before this migration
 * have none and can never hand out a token (they expire within 2 minutes anyway).
 */
export const qrPickup: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('qr_logins').addColumn('pickup_hash', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('qr_logins').dropColumn('pickup_hash').execute();
  },
};
