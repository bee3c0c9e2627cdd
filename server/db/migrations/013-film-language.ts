import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

/**
 * The language a film's lines are spoken in (film.json `language`, a BCP 47 primary tag such as
 * "en" or "zh"; null for films that declare none: their words are not checked, docs/score.md), and
 * the word check of each line's reference audio (server/ai/reference-words.ts), cached like the
 * reference analysis so the actor's words are aligned once per imported audio.
 */
export const filmLanguage: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('films').addColumn('language', 'text').execute();
    await db.schema
      .createTable('reference_words')
      .addColumn('subtitle_id', 'text', (c) => c.primaryKey())
      // The reference audio key the check was made from (keys are versioned per import).
      .addColumn('audio_key', 'text', (c) => c.notNull())
      // The film's language when it was checked: a re-declared language checks again.
      .addColumn('language', 'text')
      // The WordCheck (src/api/contract/words.ts) as JSON.
      .addColumn('words', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('reference_words').ifExists().execute();
    await db.schema.alterTable('films').dropColumn('language').execute();
  },
};
