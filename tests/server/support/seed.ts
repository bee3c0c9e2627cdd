import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { EMOTIONS, type WordCheck } from '../../../src/api/contract';
import { createUser } from '../../../server/auth/users';
import type { Database } from '../../../server/db/schema';
import { importFilmFolder } from '../../../server/films/import';
import { createShareToken, shareSecret } from '../../../server/reports/share-link';
import { refreshRunDubbing, runForTake } from '../../../server/takes/runs';
import {
  startTestServer,
  type TestEngine,
  type TestServer,
  type TestServerOptions,
} from '../../support/server';
import { seedAiFilm } from '../ai-support';
import { makeFilmFolder } from './film-fixture';
import { client } from './http';

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

let learners = 0;

/**
 * A learner of its own, signed in: no takes, no statistics, whatever ran before. The account is
 * `prefix` and a number counted in this process.
 */
export async function newLearner(server: TestServer, prefix: string): Promise<{ token: string; id: string }> {
  learners += 1;
  const account = `${prefix}${learners}`;
  await addUser(server.app.db, account, `${prefix}-pass`);
  const { token, id } = await client(server.url).login(account, `${prefix}-pass`);
  return { token, id };
}

/** What {@link aiFilmServer} sets: read it inside tests and hooks, where the hooks have run. */
export interface AiFilmServer {
  readonly server: TestServer;
  readonly token: string;
  readonly userId: string;
}

/**
 * Hooks for a describe block: one test server on `engine` with the AI film of ai-support.ts, and for
 * each test a learner of its own ({@link newLearner} with `prefix`), so no test sees another's takes.
 */
export function aiFilmServer(
  engine: TestEngine,
  prefix: string,
  options: Omit<TestServerOptions, 'engine'> = { seedDemo: true },
): AiFilmServer {
  const state: { server?: TestServer; token?: string; userId?: string } = {};
  beforeAll(async () => {
    state.server = await startTestServer({ ...options, engine });
    await seedAiFilm(state.server.app);
  });
  afterAll(() => state.server?.close());
  beforeEach(async () => {
    ({ token: state.token, id: state.userId } = await newLearner(state.server!, prefix));
  });
  return {
    get server() {
      return state.server!;
    },
    get token() {
      return state.token!;
    },
    get userId() {
      return state.userId!;
    },
  };
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
  /** The run to join (default: the learner's latest run of the film, as for an upload without runId). */
  runId?: string;
  scores?: Partial<Record<'emotion' | 'intonation' | 'energy' | 'timing' | 'quality', number>>;
  /** Score JSON v2: whether the detected emotion was clear enough to name; absent = a v1 result. */
  clear?: boolean;
  /** False: a take in which the scorer detected no speech (default true). */
  speech?: boolean;
  /** The take's word check and the actor's (SpeechScore `words`, `actorWords`); absent by default. */
  words?: WordCheck;
  actorWords?: WordCheck | null;
}

/** A complete contract SpeechScore for a seeded take, with the figures the report and suggestion read. */
export function seededScore(id: string, t: TakeSeed) {
  const scores = {
    emotion: t.overall,
    intonation: t.overall,
    energy: t.overall,
    timing: t.overall,
    quality: 90,
    ...t.scores,
  };
  const figures = (pitchRange: number, loudnessRange: number) => ({
    durationMs: 2000,
    speechMs: 1600,
    pitchMedianHz: 180,
    pitchRangeSemitones: pitchRange,
    loudnessMeanDb: -25,
    loudnessRangeDb: loudnessRange,
    syllablesPerSecond: 4,
    pauseCount: 0,
    jitterPct: 1,
    shimmerDb: 1,
    hnrDb: 10,
  });
  return {
    version: t.clear === undefined ? 1 : 2,
    takeId: id,
    subtitlesId: t.subtitleId,
    filmId: t.filmId,
    attempt: t.attempt,
    overall: t.overall,
    scores,
    emotion: {
      detected: t.detected,
      probabilities: Object.fromEntries(EMOTIONS.map((e) => [e, e === t.detected ? 0.8 : 0.2 / 6])),
      arousal: 0.5,
      valence: 0.1,
      target: t.target ?? null,
      targetSource: t.target ? 'annotated' : 'none',
      actorProbabilities: null,
      ...(t.clear === undefined ? {} : { clear: t.clear }),
    },
    prosody: { learner: figures(6, 20), actor: figures(9, 30) },
    contours: {
      t: [0, 0.5, 1],
      learnerPitch: [0, 1, -1],
      actorPitch: [0, 2, -2],
      learnerLoudness: [-10, -5, -8],
      actorLoudness: [-9, -4, -9],
    },
    quality: { speechDetected: t.speech !== false, tooQuiet: t.speech === false, clipped: false, snrDb: 30 },
    tips: [{ zh: `第 ${t.subtitleId} 句的提示`, en: `A tip for ${t.subtitleId}` }],
    comparison: null,
    audioUrl: `/media/takes/${t.userId}/${id}.wav`,
    ...(t.words ? { words: t.words } : {}),
    ...(t.actorWords !== undefined ? { actorWords: t.actorWords } : {}),
    createdAt: t.createdAt,
  };
}

/**
 * Writes a take row the way the AI service does (result = contract SpeechScore JSON), so report
 * tests do not depend on the scorer.
 */
export async function insertTake(db: Kysely<Database>, t: TakeSeed): Promise<string> {
  // The learner is part of the id: two learners may dub the same line at the same moment.
  const id = `take-${t.userId}-${t.subtitleId}-${t.attempt}-${t.createdAt.replace(/[^0-9A-Za-z]/g, '')}`;
  // The run a take joins, by the service's own rule (the learner's latest run of the film).
  const run = await runForTake(db, t.userId, t.filmId, t.runId);
  await db
    .insertInto('takes')
    .values({
      id,
      user_id: t.userId,
      film_id: t.filmId,
      subtitle_id: t.subtitleId,
      attempt: t.attempt,
      audio_key: `takes/${t.userId}/${id}.wav`,
      result: JSON.stringify(seededScore(id, t)),
      overall: t.overall,
      speech: t.speech === false ? 0 : 1,
      created_at: t.createdAt,
      run_id: run.id,
    })
    .execute();
  await refreshRunDubbing(db, run.id);
  return id;
}

/**
 * A learner's run of the fixture film (imported first) with one take and a ready dubbed video of
 * `bytes`, shared by a signed link; answers the link's token and the video's URL path. The render
 * itself is tested in dub-render.test.ts.
 */
export async function seedSharedDub(
  server: TestServer,
  account: string,
  bytes: Buffer,
): Promise<{ runId: string; token: string; dubPath: string }> {
  const user = await addUser(server.app.db, account, `${account}-pass`);
  const line = await server.app.db
    .selectFrom('subtitles')
    .select('id')
    .where('film_id', '=', 'test-film')
    .executeTakeFirstOrThrow();
  const takeId = await insertTake(server.app.db, {
    userId: user.id,
    filmId: 'test-film',
    subtitleId: line.id,
    attempt: 1,
    overall: 70,
    detected: 'neutral',
    createdAt: new Date().toISOString(),
  });
  const { run_id } = await server.app.db
    .selectFrom('takes')
    .select('run_id')
    .where('id', '=', takeId)
    .executeTakeFirstOrThrow();
  const runId = run_id as string;
  const dubKey = `runs/${runId}/dub.mp4`;
  await server.app.storage.put(dubKey, bytes);
  await server.app.db
    .insertInto('dub_renders')
    .values({
      run_id: runId,
      user_id: user.id,
      signature: 'test',
      status: 'ready',
      media_key: dubKey,
      error: null,
      updated_at: new Date().toISOString(),
    })
    .execute();
  const { token } = createShareToken(await shareSecret(server.app.db), runId);
  return { runId, token, dubPath: `/producer/h5/report/${token}/dub.mp4` };
}
