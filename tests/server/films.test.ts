import { afterAll, beforeAll, expect, it } from 'vitest';
import { filmDetail, filmList, saveQuestionRecordData } from '../../src/api/contract';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { importFixtureFilm } from './support/seed';

const P1 = '/producer/active_relation_one';
const P2 = '/producer/active_relation_two';

describeEngines('films and answers', (engine) => {
  let server: TestServer;
  let c: Client;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await importFixtureFilm(server);
    c = client(server.url);
    await c.login('demo', 'demo123456');
  });
  afterAll(() => server?.close());

  it('lists films for prpo with a form-encoded POST and for prpt with a GET query', async () => {
    const one = await c.postForm(`${P1}/show_film_picture`, { page: '1', pageSize: '10', _v: '123' });
    expect(one.body.code).toBe(200);
    const list1 = filmList.parse(one.body.data);
    expect(list1.total).toBe(1);
    expect(list1.list[0]).toMatchObject({ id: 'test-film', lineCount: 3, questionCount: 3 });
    expect(list1.list[0].poster).toMatch(/^\/media\/films\/test-film\/.+\/poster\.jpg$/);
    const two = await c.get(`${P2}/show_film_picture`, { _v: '1' });
    expect(filmList.parse(two.body.data).list.map((f) => f.id)).toEqual(['test-film']);
    const bad = await c.get(`${P2}/show_film_picture`, { pageSize: '1000' });
    expect(bad.body.code).toBe(400);
    expect(bad.body.data.field).toBe('pageSize');
  });

  it('returns the detail with subtitles as mm:ss and ms, and never the answer key', async () => {
    const res = await c.postJson(`${P1}/get_film_info`, { id: 'test-film' });
    expect(res.body.code).toBe(200);
    const d = filmDetail.parse(res.body.data);
    expect(d.subtitlesList.map((s) => [s.startTime, s.endTime, s.startMs, s.endMs])).toEqual([
      ['00:00.500', '00:01.800', 500, 1800],
      ['00:02', '00:03.250', 2000, 3250],
      ['00:03.500', '00:05', 3500, 5000],
    ]);
    expect(d.subtitlesList[0]).toMatchObject({
      text: '你好，世界。',
      speaker: '甲',
      targetEmotion: 'happiness',
    });
    expect(d.subtitlesList[0].referenceAudio).toMatch(/\/lines\/1\.wav$/);
    expect(d.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
    const raw = JSON.stringify(res.body.data);
    expect(raw).not.toContain('"answer"');
    expect(raw).not.toContain('explanation');
    expect(d.video).toMatch(/video\.mp4$/);
    // The fixture declares no language: sent as null, so its takes say the words were not checked.
    expect(res.body.data.language).toBeNull();
    expect(d.subtitlesTrack).toMatch(/track\.vtt$/);
    // Part two answers the same detail, plus each line's pitch contour for the dub page's guide: the
    // fixture's lines are a steady 220 Hz tone, so the contour sits on the median (0 semitones).
    const two = await c.postJson(`${P2}/get_film_info`, { id: 'test-film' });
    const lines2 = filmDetail.parse(two.body.data).subtitlesList;
    expect(lines2.map(({ actorPitch: _, ...rest }) => rest)).toEqual(
      d.subtitlesList.map(({ actorPitch: _, ...rest }) => rest),
    );
    expect(d.subtitlesList.every((s) => s.actorPitch === null)).toBe(true);
    // The dub page is told before a first take that this film's words will not be checked (the
    // fixture declares no language); part one has no takes and is not told.
    expect(filmDetail.parse(two.body.data).wordsNotChecked).toEqual({ reason: 'language', language: null });
    expect(d.wordsNotChecked).toBeUndefined();
    for (const s of lines2) {
      expect(s.actorPitch?.hopSeconds).toBeCloseTo(0.02, 9);
      const voiced = (s.actorPitch?.semitones ?? []).filter((x) => x !== null) as number[];
      expect(voiced.length, `${s.id} voiced points`).toBeGreaterThan(((s.endMs - s.startMs) / 20) * 0.8);
      expect(Math.max(...voiced.map(Math.abs)), `${s.id} steady tone`).toBeLessThanOrEqual(0.2);
    }
  });

  it('answers not found for an unknown film and 400 for a missing id', async () => {
    const res = await c.postJson(`${P2}/get_film_info`, { id: 'no-such-film' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, msg: '影片不存在', data: { msgId: 'error.filmNotFound' } });
    const missing = await c.postJson(`${P2}/get_film_info`, {});
    expect(missing.body.data.field).toBe('id');
  });

  it('scores objective answers on the server and stores the record', async () => {
    const res = await c.postJson(`${P1}/save_question_record`, {
      filmId: 'test-film',
      answers: [
        { questionId: 'q1', value: 'a' },
        { questionId: 'q2', value: ['b'] },
        { questionId: 'q3', value: '很有意思' },
      ],
      durationMs: 90_000,
    });
    expect(res.body.code).toBe(200);
    const data = saveQuestionRecordData.parse(res.body.data);
    expect(data).toMatchObject({ part: 'prpo', filmId: 'test-film', score: 10, maxScore: 30, percent: 33 });
    expect(data.results.map((r) => [r.questionId, r.correct, r.score])).toEqual([
      ['q1', true, 10],
      ['q2', false, 0],
      ['q3', null, 0],
    ]);
    expect(data.results[1].correctAnswer).toEqual(['a', 'b']);
    const row = await server.app.db
      .selectFrom('question_records')
      .selectAll()
      .where('id', '=', data.recordId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ part: 'prpo', score: 10, max_score: 30, duration_ms: 90_000 });
    // Progress shows on the list.
    const list = filmList.parse((await c.postForm(`${P1}/show_film_picture`, {})).body.data);
    expect(list.list[0].progress).toMatchObject({ answered: true, bestScore: 33 });
    // Part two's progress is its own.
    const list2 = filmList.parse((await c.get(`${P2}/show_film_picture`)).body.data);
    expect(list2.list[0].progress.answered).toBe(false);
  });

  it.each([
    [{ answers: [{ questionId: 'zz', value: 'a' }] }, 'answers.0.questionId', '题目不存在'],
    [
      {
        answers: [
          { questionId: 'q1', value: 'x' },
          { questionId: 'q2', value: ['a'] },
        ],
      },
      'answers.0.value',
      '选项无效',
    ],
    [
      {
        answers: [
          { questionId: 'q1', value: ['a', 'b'] },
          { questionId: 'q2', value: ['a'] },
        ],
      },
      'answers.0.value',
      '单选题',
    ],
    [{ answers: [{ questionId: 'q1', value: 'a' }] }, 'answers.q2', '必答'],
    [
      {
        answers: [
          { questionId: 'q1', value: 'a' },
          { questionId: 'q1', value: 'a' },
        ],
      },
      'answers.1.questionId',
      '重复',
    ],
    [
      {
        answers: [
          { questionId: 'q1', value: 'a' },
          { questionId: 'q2', value: ['a', 'a'] },
        ],
      },
      'answers.1.value',
      '重复',
    ],
    [{ answers: 'nope' }, 'answers', ''],
  ])('rejects invalid answers naming the field (%j)', async (patch, field, text) => {
    const before = await server.app.db.selectFrom('question_records').select('id').execute();
    const res = await c.postJson(`${P2}/save_question_record`, { filmId: 'test-film', ...patch });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.data.field).toBe(field);
    expect(res.body.msg).toContain(text);
    // Nothing half-written.
    const after = await server.app.db.selectFrom('question_records').select('id').execute();
    expect(after.length).toBe(before.length);
  });

  it('rejects answers for an unknown film with 404', async () => {
    const res = await c.postJson(`${P2}/save_question_record`, { filmId: 'nope', answers: [] });
    expect(res.body.code).toBe(404);
  });

  it('needs a token for every film call', async () => {
    const anon = client(server.url);
    expect((await anon.postForm(`${P1}/show_film_picture`, {})).body.code).toBe(1002);
    expect((await anon.postJson(`${P1}/get_film_info`, { id: 'test-film' })).body.code).toBe(1002);
    expect(
      (await anon.postJson(`${P2}/save_question_record`, { filmId: 'test-film', answers: [] })).body.code,
    ).toBe(1002);
    // The token is checked before the input: a stranger learns nothing about the call's schema.
    const badAndAnon = await anon.get(`${P2}/show_film_picture`, { pageSize: '1000' });
    expect(badAndAnon.body.code).toBe(1002);
  });

  it('answers bad input declared in a route schema with the field and the Chinese-first message', async () => {
    const res = await c.postJson(`${P1}/get_film_info`, { id: 42 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, data: { field: 'id' } });
    expect(res.body.msg).toMatch(/^参数错误：id /);
    expect(res.body.data.issues).toEqual([{ path: 'id', message: expect.any(String) }]);
  });
});
