import type { Kysely, Migration } from 'kysely';

// Portable DDL only (text, integer, real): the same migration runs on SQLite and PostgreSQL.
// Kysely<any> is the documented type for migrations: they must not depend on today's schema type.
// biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped database
type AnyDb = Kysely<any>;

export const initial: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account', 'text', (c) => c.notNull().unique())
      .addColumn('nickname', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('qr_logins')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('scanned_at', 'text')
      .addColumn('confirmed_at', 'text')
      .addColumn('delivered_at', 'text')
      .execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('films')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_en', 'text', (c) => c.notNull())
      .addColumn('synopsis', 'text', (c) => c.notNull())
      .addColumn('parts', 'text', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('poster_key', 'text', (c) => c.notNull())
      .addColumn('video_key', 'text', (c) => c.notNull())
      .addColumn('track_key', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('subtitles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('film_id', 'text', (c) => c.notNull().references('films.id').onDelete('cascade'))
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('start_ms', 'integer', (c) => c.notNull())
      .addColumn('end_ms', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('translation', 'text', (c) => c.notNull())
      .addColumn('speaker', 'text', (c) => c.notNull())
      .addColumn('target_emotion', 'text')
      .addColumn('reference_audio_key', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subtitles_film_idx').on('subtitles').columns(['film_id', 'idx']).execute();

    await db.schema
      .createTable('questions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('film_id', 'text', (c) => c.notNull().references('films.id').onDelete('cascade'))
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('explanation', 'text', (c) => c.notNull())
      .addColumn('required', 'integer', (c) => c.notNull())
      .addColumn('points', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('questions_film_idx').on('questions').columns(['film_id', 'idx']).execute();

    // Records and takes keep a film id without a foreign key: a re-import replaces a film's rows
    // and must not delete what learners have already done.
    await db.schema
      .createTable('question_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('film_id', 'text', (c) => c.notNull())
      .addColumn('part', 'text', (c) => c.notNull())
      .addColumn('answers', 'text', (c) => c.notNull())
      .addColumn('results', 'text', (c) => c.notNull())
      .addColumn('score', 'real', (c) => c.notNull())
      .addColumn('max_score', 'real', (c) => c.notNull())
      .addColumn('duration_ms', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('question_records_user_idx')
      .on('question_records')
      .columns(['user_id', 'part', 'created_at'])
      .execute();

    await db.schema
      .createTable('takes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('film_id', 'text', (c) => c.notNull())
      .addColumn('subtitle_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('audio_key', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('overall', 'real', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('takes_user_line_idx')
      .on('takes')
      .columns(['user_id', 'subtitle_id', 'attempt', 'created_at'])
      .execute();
    await db.schema.createIndex('takes_user_film_idx').on('takes').columns(['user_id', 'film_id']).execute();

    await db.schema
      .createTable('reference_analyses')
      .addColumn('subtitle_id', 'text', (c) => c.primaryKey())
      .addColumn('analysis', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('speaker_stats')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('stats', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: AnyDb) {
    for (const t of [
      'speaker_stats',
      'reference_analyses',
      'takes',
      'question_records',
      'questions',
      'subtitles',
      'films',
      'settings',
      'login_failures',
      'qr_logins',
      'sessions',
      'users',
    ]) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
};
