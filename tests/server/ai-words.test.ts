import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { report, speechScore, type WordCheck } from '../../src/api/contract';
import { type ScoringDeps, scoreAndStore } from '../../server/ai/score-and-store';
import { runForTake } from '../../server/takes/runs';
import { startTestServer, type TestServer } from '../support/server';
import { AI_FILM, fixtureWav, LINES, postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { newLearner } from './support/seed';

/**
 * The word check in the scoring path (server/ai/score-and-store.ts, server/ai/take-words.ts), run
 * through the real upload route and job: the engines of server/words answer as they are installed
 * here, so an English film's takes say "engine_missing" until the engine is; the check is stored with
 * the take and returned by the upload, the report and the film detail.
 */
describeEngines('the word check of a take', (engine) => {
  let server: TestServer;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await seedAiFilm(server.app);
  });
  afterAll(() => server?.close());

  beforeEach(async () => {
    ({ token, id: userId } = await newLearner(server, 'words'));
  });

  const setLanguage = (language: string | null) =>
    server.app.db.updateTable('films').set({ language }).where('id', '=', AI_FILM).execute();
  const storedScore = async (takeId: string) => {
    const rows = await server.app.db
      .selectFrom('takes')
      .select('result')
      .where('user_id', '=', userId)
      .execute();
    const scores = rows.map((r) => speechScore.parse(JSON.parse(r.result)));
    const mine = scores.find((s) => s.takeId === takeId);
    expect(mine, `take ${takeId} stored`).toBeDefined();
    return mine!;
  };

  it("an English line's take carries the engine's own answer, stored, returned and reported", async () => {
    await setLanguage('en');
    await server.app.db.deleteFrom('reference_words').execute();
    const { body } = await postTake(server.url, token, {
      file: fixtureWav('15a01Wa.wav'),
      takeId: 'words-en-01',
    });
    expect(body.code).toBe(200);
    const score = speechScore.parse(body.data);
    // The placeholder English engine answers plainly that it is not installed; nothing pretends.
    const expected: WordCheck = { status: 'unchecked', reason: 'engine_missing', language: 'en' };
    expect(score.words).toEqual(expected);
    expect(score.actorWords).toEqual(expected);
    const stored = await storedScore('words-en-01');
    expect(stored.words).toEqual(expected);
    expect(stored.overall).toBe(score.overall);
    // A missing engine is not a lasting answer: nothing is cached, so an engine installed later
    // checks the actor's line too.
    expect(await server.app.db.selectFrom('reference_words').selectAll().execute()).toEqual([]);

    // The report's line carries the take's words and the actor's.
    const c = client(server.url);
    c.setToken(token);
    const res = await c.get('/producer/active_relation_two/get_info_by_id', { filmId: AI_FILM });
    expect(res.body.code).toBe(200);
    const line = report.parse(res.body.data).dubbing?.lines.find((l) => l.subtitlesId === LINES.angry);
    expect(line?.first?.words).toEqual(expected);
    expect(line?.first?.actorWords).toEqual(expected);
  });

  it('a German line says its words are not checked for its language; a film without one says so with no language', async () => {
    await setLanguage('de');
    const de = speechScore.parse(
      (await postTake(server.url, token, { file: fixtureWav('15a01Wa.wav'), takeId: 'words-de-01' })).body
        .data,
    );
    expect(de.words).toEqual({ status: 'unchecked', reason: 'language', language: 'de' });
    await setLanguage(null);
    const none = speechScore.parse(
      (
        await postTake(server.url, token, {
          file: fixtureWav('15a01Wa.wav'),
          takeId: 'words-none-01',
          attempt: '2',
        })
      ).body.data,
    );
    expect(none.words).toEqual({ status: 'unchecked', reason: 'language', language: null });
    // Not checked: the overall is the delivery's alone, so the same audio scores the same.
    expect(none.overall).toBe(de.overall);
    // The actor's check is cached per film language: the German answer was not reused for none.
    const cached = await server.app.db
      .selectFrom('reference_words')
      .select(['language', 'words'])
      .where('subtitle_id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    expect(cached.language).toBeNull();
    expect(JSON.parse(cached.words)).toEqual(none.words);
    expect(none.actorWords).toEqual(none.words);
  });

  it("the actor's words are checked once per audio and language: the next take reads the cache", async () => {
    await setLanguage('de');
    await server.app.db.deleteFrom('reference_words').execute();
    const post = async (takeId: string, attempt: string) =>
      speechScore.parse(
        (await postTake(server.url, token, { file: fixtureWav('15a01Wa.wav'), takeId, attempt })).body.data,
      );
    const notChecked: WordCheck = { status: 'unchecked', reason: 'language', language: 'de' };
    expect((await post('words-cache-01', '1')).actorWords).toEqual(notChecked);
    // With the line's reference audio gone from storage, only the cache can answer for the actor.
    const line = await server.app.db
      .selectFrom('subtitles')
      .select('reference_audio_key')
      .where('id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    const audio = await server.app.storage.get(line.reference_audio_key);
    await server.app.storage.delete(line.reference_audio_key);
    try {
      expect((await post('words-cache-02', '2')).actorWords).toEqual(notChecked);
    } finally {
      await server.app.storage.put(line.reference_audio_key, audio);
    }
  });

  it('an engine that fails costs the take its words, never the take: scored, stored, "not checked"', async () => {
    await setLanguage('en');
    const run = await runForTake(server.app.db, userId, AI_FILM, undefined);
    const warnings: string[] = [];
    const line = await server.app.db
      .selectFrom('subtitles')
      .select('reference_audio_key')
      .where('id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    const score = await scoreAndStore(
      {
        db: server.app.db,
        storage: server.app.storage,
        pool: server.app.scoring,
        // Only warn is called; recorded so the test can see the failure was logged.
        log: {
          warn: (_obj: object, msg: string) => {
            warnings.push(msg);
          },
        } as ScoringDeps['log'],
        config: server.app.config,
        checkWords: async () => {
          throw new Error('engine crashed');
        },
      },
      {
        rowId: `${userId}-crash`,
        userId,
        takeId: 'words-crash-01',
        filmId: AI_FILM,
        runId: run.id,
        subtitleId: LINES.angry,
        attempt: 1,
        referenceKey: line.reference_audio_key,
        targetEmotion: 'anger',
        createdAt: new Date().toISOString(),
      },
      fixtureWav('15a01Wa.wav'),
      false,
    );
    expect(score.words).toEqual({ status: 'unchecked', reason: 'engine_failed', language: 'en' });
    expect(score.quality.speechDetected).toBe(true);
    expect(score.overall).toBeGreaterThan(0);
    expect((await storedScore('words-crash-01')).words).toEqual(score.words);
    expect(warnings).toContain('word check failed; the take is scored without');
  });
});
