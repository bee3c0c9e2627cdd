import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/** Each film's voice-free background track (server/films/background.ts); null until re-imported. */
export const filmBackground: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('films').addColumn('background_key', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('films').dropColumn('background_key').execute();
  },
};
