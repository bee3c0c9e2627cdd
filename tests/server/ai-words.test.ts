import { expect, it } from 'vitest';
import { report, speechScore, type WordCheck } from '../../src/api/contract';
import { type ScoringDeps, scoreAndStore } from '../../server/ai/score-and-store';
import { runForTake } from '../../server/takes/runs';
import { englishWordCheckStatus } from '../../server/words/en';
import { PASS_SCORE } from '../../src/audio/scoring/words';
import { AI_FILM, fixtureWav, LINES, postTake, withoutReferenceAudio } from './ai-support';
import { describeEngines } from './support/engines';
import { aiFilmServer } from './support/seed';
import { client } from './support/http';

/**
 * The word check in the scoring path (server/ai/score-and-store.ts, server/ai/take-words.ts), run
 * through the real upload route and job: the engines of server/words answer as they are installed
 * here; the check is stored with the take and returned by the upload, the report and the film detail.
 */
describeEngines('the word check of a take', (engine) => {
  const ai = aiFilmServer(engine, 'words');

  const setLanguage = (language: string | null) =>
    ai.server.app.db.updateTable('films').set({ language }).where('id', '=', AI_FILM).execute();
  const storedScore = async (takeId: string) => {
    const rows = await ai.server.app.db
      .selectFrom('takes')
      .select('result')
      .where('user_id', '=', ai.userId)
      .execute();
    const scores = rows.map((r) => speechScore.parse(JSON.parse(r.result)));
    const mine = scores.find((s) => s.takeId === takeId);
    expect(mine, `take ${takeId} stored`).toBeDefined();
    return mine!;
  };

  it("an English line's take carries the engine's own answer, stored, returned and reported", async () => {
    await setLanguage('en');
    await ai.server.app.db.deleteFrom('reference_words').execute();
    const { body } = await postTake(ai.server.url, ai.token, {
      file: fixtureWav('15a01Wa.wav'),
      takeId: 'words-en-01',
    });
    expect(body.code).toBe(200);
    const score = speechScore.parse(body.data);
    const line = await ai.server.app.db
      .selectFrom('subtitles')
      .select('text')
      .where('id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    if (englishWordCheckStatus()) {
      // Without pocketsphinx (never under CI, tests/server/words-en.test.ts) the engine says so plainly
      // and nothing is cached, so an engine installed later checks the actor's line too.
      const missing: WordCheck = { status: 'unchecked', reason: 'engine_missing', language: 'en' };
      expect(score.words).toEqual(missing);
      expect(await ai.server.app.db.selectFrom('reference_words').selectAll().execute()).toEqual([]);
    } else {
      // The line is German, the film says English: the take is checked, one entry per word of the
      // line, and German speech is not taken for this English line.
      if (score.words?.status !== 'checked')
        throw new Error(`words not checked: ${JSON.stringify(score.words)}`);
      expect(score.words.words.map((w) => w.text).join(' ')).toBe(line.text.replace(/[.,!?]/g, '').trim());
      expect(score.words.otherLine).toBe(true);
      expect(score.overall).toBeLessThan(PASS_SCORE);
      expect(score.actorWords?.status).toBe('checked');
      // A checked actor's line is a lasting answer: cached once for the line's audio and language.
      const cached = await ai.server.app.db.selectFrom('reference_words').select(['language']).execute();
      expect(cached).toEqual([{ language: 'en' }]);
    }
    const stored = await storedScore('words-en-01');
    expect(stored.words).toEqual(score.words);
    expect(stored.overall).toBe(score.overall);

    // The report's line carries the take's words and the actor's.
    const c = client(ai.server.url);
    c.setToken(ai.token);
    const res = await c.get('/producer/active_relation_two/get_info_by_id', { filmId: AI_FILM });
    expect(res.body.code).toBe(200);
    const reported = report.parse(res.body.data).dubbing?.lines.find((l) => l.subtitlesId === LINES.angry);
    expect(reported?.first?.words).toEqual(score.words);
    expect(reported?.first?.actorWords).toEqual(score.actorWords);
  });

  it('a German line says its words are not checked for its language; a film without one says so with no language', async () => {
    await setLanguage('de');
    const de = speechScore.parse(
      (await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav'), takeId: 'words-de-01' }))
        .body.data,
    );
    expect(de.words).toEqual({ status: 'unchecked', reason: 'language', language: 'de' });
    await setLanguage(null);
    const none = speechScore.parse(
      (
        await postTake(ai.server.url, ai.token, {
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
    const cached = await ai.server.app.db
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
    await ai.server.app.db.deleteFrom('reference_words').execute();
    const post = async (takeId: string, attempt: string) =>
      speechScore.parse(
        (await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav'), takeId, attempt })).body
          .data,
      );
    const notChecked: WordCheck = { status: 'unchecked', reason: 'language', language: 'de' };
    expect((await post('words-cache-01', '1')).actorWords).toEqual(notChecked);
    // With the line's reference audio gone from storage, only the cache can answer for the actor.
    await withoutReferenceAudio(ai.server.app, LINES.angry, async () => {
      expect((await post('words-cache-02', '2')).actorWords).toEqual(notChecked);
    });
  });

  it('an engine that fails costs the take its words, never the take: scored, stored, "not checked"', async () => {
    await setLanguage('en');
    const run = await runForTake(ai.server.app.db, ai.userId, AI_FILM, undefined);
    const warnings: string[] = [];
    const line = await ai.server.app.db
      .selectFrom('subtitles')
      .select('reference_audio_key')
      .where('id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    const score = await scoreAndStore(
      {
        db: ai.server.app.db,
        storage: ai.server.app.storage,
        pool: ai.server.app.scoring,
        // Only warn is called; recorded so the test can see the failure was logged.
        log: {
          warn: (_obj: object, msg: string) => {
            warnings.push(msg);
          },
        } as ScoringDeps['log'],
        config: ai.server.app.config,
        checkWords: async () => {
          throw new Error('engine crashed');
        },
      },
      {
        rowId: `${ai.userId}-crash`,
        userId: ai.userId,
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
