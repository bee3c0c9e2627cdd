import type { Kysely } from 'kysely';
import { createUser } from '../../../server/auth/users';
import type { Database } from '../../../server/db/schema';
import { importFilmFolder } from '../../../server/films/import';
import type { TestServer } from '../../support/server';
import { makeFilmFolder } from './film-fixture';

/** Imports the fixture film into a running test server. */
export async function importFixtureFilm(server: TestServer, id = 'test-film'): Promise<void> {
  await importFilmFolder({ db: server.app.db, storage: server.app.storage }, await makeFilmFolder(id));
}

export async function addUser(
  db: Kysely<Database>,
  account: string,
  password = 'secret123',
  nickname?: string,
) {
  return createUser(db, { account, password, nickname });
}

export interface TakeSeed {
  userId: string;
  filmId: string;
  subtitleId: string;
  attempt: 1 | 2;
  overall: number;
  detected: string;
  target?: string | null;
  createdAt: string;
  scores?: Partial<Record<'emotion' | 'intonation' | 'energy' | 'timing' | 'quality', number>>;
}

/**
 * Writes a take row the way the AI service does (result = contract SpeechScore JSON), so report
 * tests do not depend on the scorer.
 */
export async function insertTake(db: Kysely<Database>, t: TakeSeed): Promise<string> {
  const id = `take-${t.subtitleId}-${t.attempt}-${t.createdAt.replace(/[^0-9A-Za-z]/g, '')}`;
  const scores = {
    emotion: t.overall,
    intonation: t.overall,
    energy: t.overall,
    timing: t.overall,
    quality: 90,
    ...t.scores,
  };
  const result = {
    version: 1,
    takeId: id,
    subtitlesId: t.subtitleId,
    filmId: t.filmId,
    attempt: t.attempt,
    overall: t.overall,
    scores,
    emotion: {
      detected: t.detected,
      probabilities: { [t.detected]: 0.8 },
      arousal: 0.5,
      valence: 0.1,
      target: t.target ?? null,
      targetSource: t.target ? 'annotated' : 'none',
      actorProbabilities: null,
    },
    audioUrl: `/media/takes/${t.userId}/${id}.wav`,
    createdAt: t.createdAt,
  };
  await db
    .insertInto('takes')
    .values({
      id,
      user_id: t.userId,
      film_id: t.filmId,
      subtitle_id: t.subtitleId,
      attempt: t.attempt,
      audio_key: `takes/${t.userId}/${id}.wav`,
      result: JSON.stringify(result),
      overall: t.overall,
      created_at: t.createdAt,
    })
    .execute();
  return id;
}
