import { expect, it } from 'vitest';
import { type Emotion, report, speechScore } from '../../src/api/contract';
import { analyzeVoice, classifyEmotion, FEATURE_NAMES } from '../../src/audio/analysis';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import { readActorLines } from '../../src/audio/scoring/pipeline';
import {
  AI_FILM,
  fixtureWav,
  floatStereoFrom,
  LINES,
  postTake,
  rawWav,
  silentWav,
  withoutReferenceAudio,
} from './ai-support';
import { describeEngines } from './support/engines';
import { aiFilmServer } from './support/seed';
import { client } from './support/http';

describeEngines('POST /ai/speech_emotion', (engine) => {
  const ai = aiFilmServer(engine, 'speaker');

  it('scores a good take against the actor, answers the contract result and stores audio and row', async () => {
    // The actor's line is analysed on its first use and cached.
    await ai.server.app.db.deleteFrom('reference_analyses').where('subtitle_id', '=', LINES.angry).execute();
    const wav = fixtureWav('15a01Wa.wav');
    const { status, body } = await postTake(ai.server.url, ai.token, { file: wav, takeId: 'take-good-0001' });
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    const score = speechScore.parse(body.data);
    expect(score).toMatchObject({
      subtitlesId: LINES.angry,
      filmId: AI_FILM,
      attempt: 1,
      takeId: 'take-good-0001',
    });
    expect(score.emotion.targetSource).toBe('annotated');
    expect(score.emotion.target).toBe('anger');
    expect(score.prosody.actor).not.toBeNull();
    expect(score.contours.actorPitch).not.toBeNull();
    expect(score.contours.t.length).toBeLessThanOrEqual(100);
    expect(score.statements?.length).toBeGreaterThanOrEqual(2);
    expect(score.statements?.length).toBeLessThanOrEqual(3);
    expect(score.quality.speechDetected).toBe(true);

    const rows = await ai.server.app.db
      .selectFrom('takes')
      .selectAll()
      .where('user_id', '=', ai.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      subtitle_id: LINES.angry,
      film_id: AI_FILM,
      attempt: 1,
      overall: score.overall,
    });
    // Under the run's media prefix (a first take with no answers starts the learner's run).
    expect(rows[0].run_id).toBeTruthy();
    expect(rows[0].audio_key).toBe(`takes/${ai.userId}/${rows[0].run_id}/${rows[0].id}.wav`);
    expect(Buffer.compare(await ai.server.app.storage.get(rows[0].audio_key), Buffer.from(wav))).toBe(0);
    // A signed link to the stored wav (server/takes/audio-links.ts).
    expect(score.audioUrl).toMatch(/\?exp=\d+&sig=[\w-]+$/);
    expect(score.audioUrl.split('?')[0]).toBe(ai.server.app.storage.url(rows[0].audio_key));
    const cached = await ai.server.app.db
      .selectFrom('reference_analyses')
      .select('subtitle_id')
      .where('subtitle_id', '=', LINES.angry)
      .execute();
    expect(cached).toHaveLength(1);
    const stats = await ai.server.app.db
      .selectFrom('speaker_stats')
      .selectAll()
      .where('user_id', '=', ai.userId)
      .execute();
    expect(stats[0]?.count).toBe(1);
  });

  it('stores a second attempt separately and reuses the cached actor analysis', async () => {
    expect((await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav') })).body.code).toBe(
      200,
    );
    // With the line's reference audio gone from storage, only the cache can supply the actor.
    await withoutReferenceAudio(ai.server.app, LINES.angry, async () => {
      const { body } = await postTake(ai.server.url, ai.token, {
        file: fixtureWav('15a02Wd.wav'),
        attempt: '2',
      });
      expect(body.code).toBe(200);
      const score = speechScore.parse(body.data);
      expect(score.attempt).toBe(2);
      expect(score.prosody.actor).not.toBeNull();
      expect(score.comparison).not.toBeNull();
      const rows = await ai.server.app.db
        .selectFrom('takes')
        .select(['attempt'])
        .where('user_id', '=', ai.userId)
        .where('subtitle_id', '=', LINES.angry)
        .orderBy('attempt')
        .execute();
      expect(rows.map((r) => r.attempt)).toEqual([1, 2]);
      const stats = await ai.server.app.db
        .selectFrom('speaker_stats')
        .select('count')
        .where('user_id', '=', ai.userId)
        .execute();
      expect(stats[0].count).toBe(2);
    });
  });

  it('refuses a third take of a line with the envelope (a first and a second attempt per line); a take without speech uses none up', async () => {
    const line = LINES.neutral;
    const rowsOfLine = () =>
      ai.server.app.db
        .selectFrom('takes')
        .select(['id'])
        .where('user_id', '=', ai.userId)
        .where('subtitle_id', '=', line)
        .execute();
    expect((await postTake(ai.server.url, ai.token, { subtitlesId: line })).body.code).toBe(200);
    // A second attempt without speech asks for a recording again: it does not use the attempt up.
    const silent = await postTake(ai.server.url, ai.token, {
      subtitlesId: line,
      attempt: '2',
      file: silentWav(1.5),
    });
    expect(silent.body.code).toBe(200);
    expect(speechScore.parse(silent.body.data).quality.speechDetected).toBe(false);
    const second = await postTake(ai.server.url, ai.token, { subtitlesId: line, attempt: '2' });
    expect(second.body.code).toBe(200);
    expect((await rowsOfLine()).length).toBe(3);
    const msgs = {
      zh: '这句已录过两次，不能再录',
      en: 'Both takes of this line are recorded; it cannot be recorded again',
    };
    for (const [lang, msg] of Object.entries(msgs)) {
      const third = await postTake(
        ai.server.url,
        ai.token,
        { subtitlesId: line, attempt: '2' },
        { 'accept-language': lang },
      );
      expect(third.status).toBe(409);
      expect(third.body).toMatchObject({
        code: 409,
        msg,
        data: { field: 'attempt', msgId: 'error.attemptsUsed' },
      });
    }
    expect((await rowsOfLine()).length).toBe(3);
  });

  it("analyses the actor again when a re-import changed the line's reference audio", async () => {
    const key = 'films/ai-film/v2/lines/1.wav';
    await ai.server.app.storage.put(key, Buffer.from(fixtureWav('15a04Wb.wav')));
    await ai.server.app.db
      .updateTable('subtitles')
      .set({ reference_audio_key: key })
      .where('id', '=', LINES.angry)
      .execute();
    const { body } = await postTake(ai.server.url, ai.token, { attempt: '2' });
    const score = speechScore.parse(body.data);
    const row = await ai.server.app.db
      .selectFrom('reference_analyses')
      .select('analysis')
      .where('subtitle_id', '=', LINES.angry)
      .executeTakeFirstOrThrow();
    const cached = JSON.parse(row.analysis) as { audioKey: string; analysis: { durationSeconds: number } };
    expect(cached.audioKey).toBe(key);
    expect(score.prosody.actor?.durationMs).toBe(Math.round(cached.analysis.durationSeconds * 1000));
  });

  it('analyses the actor again when the cached analysis comes from an older feature set', async () => {
    // A take caches the actor's analysis of the line (whatever ran before).
    expect((await postTake(ai.server.url, ai.token, {})).body.code).toBe(200);
    const read = async () =>
      JSON.parse(
        (
          await ai.server.app.db
            .selectFrom('reference_analyses')
            .select('analysis')
            .where('subtitle_id', '=', LINES.angry)
            .executeTakeFirstOrThrow()
        ).analysis,
      ) as { analysis: { featureNames: string[]; features: number[] } };
    const old = await read();
    old.analysis.featureNames = old.analysis.featureNames.slice(0, -1);
    old.analysis.features = old.analysis.features.slice(0, -1);
    await ai.server.app.db
      .updateTable('reference_analyses')
      .set({ analysis: JSON.stringify(old) })
      .where('subtitle_id', '=', LINES.angry)
      .execute();
    const { body } = await postTake(ai.server.url, ai.token, { attempt: '2' });
    expect(body.code).toBe(200);
    expect((await read()).analysis.featureNames).toEqual([...FEATURE_NAMES]);
  });

  it('returns the stored result for a retried upload with the same takeId instead of scoring twice', async () => {
    const first = await postTake(ai.server.url, ai.token, {
      subtitlesId: LINES.neutral,
      takeId: 'take-retry-0001',
    });
    expect(first.body.code).toBe(200);
    const again = await postTake(ai.server.url, ai.token, {
      subtitlesId: LINES.neutral,
      takeId: 'take-retry-0001',
      file: fixtureWav('15a07Fb.wav'),
    });
    expect(again.body.code).toBe(200);
    // Each answer signs its links afresh (server/takes/audio-links.ts): their expiry moves with the clock.
    const unsigned = (data: unknown) => JSON.parse(JSON.stringify(data).replace(/\?exp=\d+&sig=[\w-]+/g, ''));
    expect(JSON.stringify(again.body.data)).toMatch(/\?exp=\d+&sig=/);
    expect(unsigned(again.body.data)).toEqual(unsigned(first.body.data));
    const rows = await ai.server.app.db
      .selectFrom('takes')
      .select('id')
      .where('subtitle_id', '=', LINES.neutral)
      .where('user_id', '=', ai.userId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('uses the actor distribution as the target when the line has no annotation', async () => {
    const { body } = await postTake(ai.server.url, ai.token, { subtitlesId: LINES.neutral, attempt: '2' });
    const score = speechScore.parse(body.data);
    expect(score.emotion.targetSource).toBe('actor');
    expect(score.emotion.actorProbabilities).not.toBeNull();
  });

  it("reads the actor against the actor's other lines, and the report shows the reading the score used", async () => {
    const { body } = await postTake(ai.server.url, ai.token, { subtitlesId: LINES.neutral });
    const score = speechScore.parse(body.data);
    expect(score.emotion.targetSource).toBe('actor');
    // The role's lines with audio are lines 1 and 2 (line 3's audio is missing): line 2 is read
    // against line 1, as the classifier reads a learner's take against their earlier takes.
    const actorLine = (id: string, file: string) => {
      const wav = decodeWav(fixtureWav(file));
      return { id, features: analyzeVoice(toMono(wav), wav.sampleRate).features, voice: 'A', inVoice: true };
    };
    const voice = [actorLine(LINES.angry, '15a02Wd.wav'), actorLine(LINES.neutral, '15a01Nb.wav')];
    const expected = readActorLines(voice).get(LINES.neutral)!;
    const cold = classifyEmotion(voice[1].features, null);
    expect(score.emotion.targetArousal).toBeCloseTo(expected.arousal, 3);
    expect(Math.abs(expected.arousal - cold.arousal), 'the reading is not the cold one').toBeGreaterThan(
      0.01,
    );

    const me = client(ai.server.url);
    me.setToken(ai.token);
    const res = await me.get('/producer/active_relation_two/get_info_by_id', { filmId: AI_FILM });
    expect(res.body.code).toBe(200);
    const line = report.parse(res.body.data).dubbing?.lines.find((l) => l.subtitlesId === LINES.neutral);
    expect(line?.actor?.arousal).toBeCloseTo(score.emotion.targetArousal as number, 3);
    for (const [emotion, p] of Object.entries(score.emotion.actorProbabilities ?? {}))
      expect(line?.actor?.probabilities?.[emotion as Emotion], emotion).toBeCloseTo(p, 4);
  });

  it('scores a line whose reference audio is missing on the learner alone', async () => {
    const { body } = await postTake(ai.server.url, ai.token, { subtitlesId: LINES.noReference });
    expect(body.code).toBe(200);
    const score = speechScore.parse(body.data);
    expect(score.prosody.actor).toBeNull();
    expect(score.emotion.targetSource).toBe('none');
  });

  it('accepts 32-bit float stereo and mixes it down', async () => {
    const { body } = await postTake(ai.server.url, ai.token, {
      subtitlesId: LINES.noReference,
      attempt: '2',
      file: floatStereoFrom(fixtureWav('15a01Wa.wav')),
    });
    expect(body.code).toBe(200);
    expect(speechScore.parse(body.data).quality.speechDetected).toBe(true);
  });

  it('scores silence near zero with a tip that no speech was heard', async () => {
    const { body } = await postTake(ai.server.url, ai.token, {
      subtitlesId: LINES.noReference,
      file: silentWav(1.5),
    });
    expect(body.code).toBe(200);
    const score = speechScore.parse(body.data);
    expect(score.quality.speechDetected).toBe(false);
    expect(score.overall).toBeLessThanOrEqual(5);
    expect(score.statements?.[0].id).toBe('take.noSpeech');
  });

  it.each([
    {
      name: 'not a wav',
      file: new TextEncoder().encode('hello, this is not audio at all'),
      code: 415,
      reason: 'not_wav',
      msg: '不是 WAV',
    },
    { name: 'an empty file', file: new Uint8Array(0), code: 400, reason: 'empty', msg: '空的' },
    {
      name: '24-bit PCM',
      file: rawWav({ bits: 24 }),
      code: 415,
      reason: 'unsupported_encoding',
      msg: '24 位 PCM',
    },
    {
      name: '8-bit PCM',
      file: rawWav({ bits: 8 }),
      code: 415,
      reason: 'unsupported_encoding',
      msg: '16 位 PCM',
    },
    {
      name: 'a compressed format',
      file: rawWav({ tag: 2, bits: 4 }),
      code: 415,
      reason: 'unsupported_encoding',
      msg: '压缩编码',
    },
    {
      name: 'three channels',
      file: rawWav({ channels: 3 }),
      code: 415,
      reason: 'unsupported_channels',
      msg: '声道',
    },
    {
      name: 'an unsupported rate',
      file: rawWav({ rate: 12_000 }),
      code: 415,
      reason: 'unsupported_rate',
      msg: '12000 Hz',
    },
    {
      name: 'a header with no samples',
      file: rawWav({ seconds: 0 }),
      code: 400,
      reason: 'empty',
      msg: '空的',
    },
    { name: 'a 0.1 s take', file: rawWav({ seconds: 0.1 }), code: 400, reason: 'too_short', msg: '太短' },
    { name: 'a 61 s take', file: rawWav({ seconds: 61 }), code: 400, reason: 'too_long', msg: '太长' },
  ])(
    'rejects $name with a clear message, in the language the request asks for',
    async ({ file, code, reason, msg }) => {
      const { status, body } = await postTake(ai.server.url, ai.token, { file });
      expect(status).toBe(code);
      expect(body.code).toBe(code);
      expect(body.msg).toContain(msg);
      expect(body.msg).not.toMatch(/[a-z]{4,} [a-z]{3,}/); // Chinese alone: no English sentence beside it
      expect(body.data.reason).toBe(reason);
      const en = await postTake(ai.server.url, ai.token, { file }, { 'accept-language': 'en' });
      expect(en.status).toBe(code);
      expect(en.body.data.reason).toBe(reason);
      expect(en.body.msg).toMatch(/^[\x20-\x7e×]+$/); // English alone
      expect(en.body.msg.length).toBeGreaterThan(10);
    },
  );

  it('refuses an upload above the size limit with 413', async () => {
    const big = rawWav({ rate: 48_000, channels: 2, seconds: 60 });
    const tooBig = new Uint8Array(big.length + 256 * 1024);
    tooBig.set(big);
    const { status, body } = await postTake(ai.server.url, ai.token, { file: tooBig });
    expect(status).toBe(413);
    expect(body.code).toBe(413);
    expect(body.msg).toContain('上传内容过大');
  });

  it('rejects a missing file, an unknown line and an unknown film', async () => {
    const none = await postTake(ai.server.url, ai.token, { file: null });
    expect(none.body).toMatchObject({ code: 400, data: { field: 'file' } });
    expect(none.body.msg).toContain('缺少录音文件');
    const line = await postTake(ai.server.url, ai.token, { subtitlesId: 'nope-1' });
    expect(line.body.code).toBe(404);
    expect(line.body.msg).toContain('字幕不存在');
    const film = await postTake(ai.server.url, ai.token, { filmId: 'nope' });
    expect(film.body.code).toBe(404);
    expect(film.body.msg).toContain('影片不存在');
    const attempt = await postTake(ai.server.url, ai.token, { attempt: '3' });
    expect(attempt.body.code).toBe(400);
    expect(attempt.body.data.field).toBe('attempt');
  });

  it('answers 1002 without a token or with an unknown one', async () => {
    for (const t of [null, 'undefined', 'not-a-real-token']) {
      const { body } = await postTake(ai.server.url, t, {});
      expect(body.code).toBe(1002);
      expect(body.msg).toContain('登录信息已失效');
    }
  });

  it('starts the learner cold again when stored statistics come from another feature set', async () => {
    await ai.server.app.db
      .insertInto('speaker_stats')
      .values({
        user_id: ai.userId,
        count: 5,
        stats: JSON.stringify({ count: 5, mean: [1, 2], m2: [0, 0] }),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const { body } = await postTake(ai.server.url, ai.token, {
      subtitlesId: LINES.noReference,
      attempt: '2',
    });
    expect(body.code).toBe(200);
    const row = await ai.server.app.db
      .selectFrom('speaker_stats')
      .select('stats')
      .where('user_id', '=', ai.userId)
      .executeTakeFirstOrThrow();
    const stats = JSON.parse(row.stats) as { count: number; mean: number[] };
    expect(stats.count).toBe(1);
    expect(stats.mean).toHaveLength(FEATURE_NAMES.length);
  });

  it('survives a flood of 200 concurrent bad uploads and still scores a good take', async () => {
    const bad = [
      new TextEncoder().encode('garbage'),
      rawWav({ bits: 24 }),
      rawWav({ seconds: 0.05 }),
      rawWav({ rate: 7_000 }),
      new Uint8Array(0),
    ];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => postTake(ai.server.url, ai.token, { file: bad[i % bad.length] })),
    );
    // Each answer is either the specific refusal of that upload or, when the burst trips the
    // server's pressure limits, the clear 503 "busy" envelope; never a 500, never a hang.
    for (const a of answers) {
      expect([400, 415, 503], JSON.stringify(a.body)).toContain(a.body.code);
      if (a.body.code === 503) expect(a.body.msg).toContain('繁忙');
      else
        expect(a.body.data.reason).toMatch(
          /^(not_wav|unsupported_encoding|too_short|unsupported_rate|empty)$/,
        );
    }
    expect(answers.filter((a) => a.body.code !== 503).length).toBeGreaterThan(0);
    // Afterwards a good take is scored (a client honours retry-after while pressure subsides).
    let good = await postTake(ai.server.url, ai.token, { subtitlesId: LINES.neutral, attempt: '1' });
    for (let i = 0; i < 5 && good.body.code === 503; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      good = await postTake(ai.server.url, ai.token, { subtitlesId: LINES.neutral, attempt: '1' });
    }
    expect(good.body.code, JSON.stringify(good.body)).toBe(200);
    expect(speechScore.parse(good.body.data).quality.speechDetected).toBe(true);
  });
});
