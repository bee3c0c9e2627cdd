import { afterAll, beforeAll, expect, it } from 'vitest';
import { filmList, report, runHistoryData, runStateData, soundSuggestData } from '../../src/api/contract';
import { startTestServer, type TestServer } from '../support/server';
import { AI_FILM, fixtureWav, LINES, postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';
import { ALL_RIGHT, HALF_RIGHT } from './support/film-fixture';

const P1 = '/producer/active_relation_one';
const P2 = '/producer/active_relation_two';
const F = 'test-film';

describeEngines('training runs', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await importFixtureFilm(server);
    await seedAiFilm(server.app);
  });
  afterAll(() => server?.close());

  let learners = 0;
  async function newLearner(): Promise<{ c: Client; id: string; token: string }> {
    learners += 1;
    const account = `runner${learners}`;
    await addUser(server.app.db, account, 'runner-pass');
    const c = client(server.url);
    const { id, token } = await c.login(account, 'runner-pass');
    return { c, id, token };
  }

  const take = (userId: string, line: number, attempt: 1 | 2, overall: number, at: string) =>
    insertTake(server.app.db, {
      userId,
      filmId: F,
      subtitleId: `${F}-${line}`,
      attempt,
      overall,
      detected: 'happiness',
      createdAt: at,
    });

  it('a second run replaces what the report, the suggestion and the list show; the first stays readable', async () => {
    const { c, id } = await newLearner();
    const first = await c.postJson(`${P2}/save_question_record`, { filmId: F, answers: ALL_RIGHT });
    const run1 = first.body.data.runId as string;
    expect(run1).toBeTruthy();
    await take(id, 1, 1, 41, '2026-03-01T10:00:01.000Z');
    await take(id, 1, 2, 51, '2026-03-01T10:00:02.000Z');
    await take(id, 2, 1, 60, '2026-03-01T10:00:03.000Z');

    // A new session: answering again starts a new run, which starts clean.
    const second = await c.postJson(`${P2}/save_question_record`, { filmId: F, answers: HALF_RIGHT });
    const run2 = second.body.data.runId as string;
    expect(run2).not.toBe(run1);
    const clean = runStateData.parse((await c.get(`${P2}/get_run`, { filmId: F })).body.data);
    expect(clean.run?.runId).toBe(run2);
    expect(clean.lines).toEqual([]);
    expect(clean.answers?.percent).toBe(33);
    const listBefore = filmList.parse((await c.get(`${P2}/show_film_picture`)).body.data).list[0];
    expect(listBefore.progress).toMatchObject({ answered: true, dubbedLines: 0, bestScore: 100, runs: 2 });

    await take(id, 1, 1, 94, '2026-03-02T10:00:01.000Z');
    await take(id, 1, 2, 50, '2026-03-02T10:00:02.000Z');

    const latest = report.parse((await c.get(`${P2}/get_info_by_id`)).body.data);
    expect(latest.runId).toBe(run2);
    expect(latest.answers.percent).toBe(33);
    const line1 = latest.dubbing!.lines[0];
    expect([line1.first?.overall, line1.second?.overall]).toEqual([94, 50]);
    expect(latest.dubbing!.lines[1].first).toBeNull();
    expect(latest.dubbing!).toMatchObject({ scoredLines: 1, average: 50, improvement: -44 });

    const suggestion = soundSuggestData.parse(
      (await c.postJson(`${P2}/get_sounds_interpretation`, { filmId: F, lang: 'zh' })).body.data,
    );
    expect(suggestion.figures).toMatchObject({ scoredLines: 1, average: 50, improvement: -44 });

    const listAfter = filmList.parse((await c.get(`${P2}/show_film_picture`)).body.data).list[0];
    expect(listAfter.progress).toMatchObject({ dubbedLines: 1, runId: run2, runs: 2 });

    // The first run stays readable: in the history, by runId and by its record id.
    const history = runHistoryData.parse((await c.get(`${P2}/get_run_history`, { filmId: F })).body.data);
    expect(history.runs.map((r) => r.runId)).toEqual([run2, run1]);
    expect(history.runs[1]).toMatchObject({
      answered: true,
      answerPercent: 100,
      dubbedLines: 2,
      dubbingAverage: 55.5,
      totalLines: 3,
      filmTitle: '测试影片',
    });
    expect(history.runs[0]).toMatchObject({ answerPercent: 33, dubbedLines: 1, dubbingAverage: 50 });
    const old = report.parse((await c.get(`${P2}/get_info_by_id`, { runId: run1 })).body.data);
    expect(old.dubbing!.lines[0]).toMatchObject({ first: { overall: 41 }, second: { overall: 51 } });
    expect(old.dubbing!.average).toBe(55.5);
    const byRecord = report.parse(
      (await c.get(`${P2}/get_info_by_id`, { id: first.body.data.recordId })).body.data,
    );
    expect(byRecord.runId).toBe(run1);
    const oldSuggestion = (await c.postJson(`${P2}/get_sounds_interpretation`, { filmId: F, runId: run1 }))
      .body;
    expect(oldSuggestion.data.figures).toMatchObject({ scoredLines: 2, average: 55.5 });
    // The report's curve has both runs, oldest first.
    expect(latest.progress?.map((r) => r.runId)).toEqual([run1, run2]);

    // Another learner cannot read the run.
    const { c: other } = await newLearner();
    expect((await other.get(`${P2}/get_info_by_id`, { runId: run1 })).body.code).toBe(404);
    expect((await other.get(`${P2}/get_run`, { filmId: F, runId: run1 })).body.code).toBe(404);
  });

  it('restores a run after a reload: the answers result and each line’s first and latest take JSON', async () => {
    const { c, id } = await newLearner();
    const saved = (await c.postJson(`${P2}/save_question_record`, { filmId: F, answers: ALL_RIGHT })).body
      .data;
    await take(id, 2, 1, 30, '2026-04-01T10:00:01.000Z');
    await take(id, 2, 2, 40, '2026-04-01T10:00:02.000Z');
    await take(id, 2, 2, 45, '2026-04-01T10:00:03.000Z');
    const state = runStateData.parse((await c.get(`${P2}/get_run`, { filmId: F })).body.data);
    expect(state.answers).toEqual(saved);
    expect(state.lines).toHaveLength(1);
    expect(state.lines[0]).toMatchObject({ subtitlesId: `${F}-2`, takes: 3 });
    expect([state.lines[0].first.overall, state.lines[0].second?.overall]).toEqual([30, 45]);
    // Part one has runs of its own.
    const prpo = runStateData.parse((await c.get(`${P1}/get_run`, { filmId: F })).body.data);
    expect(prpo).toEqual({ run: null, answers: null, lines: [] });
  });

  it('dubbing before answering: the takes start a run and the answers join it', async () => {
    const { c, id } = await newLearner();
    await take(id, 1, 1, 70, '2026-05-01T10:00:01.000Z');
    const dubbedFirst = runStateData.parse((await c.get(`${P2}/get_run`, { filmId: F })).body.data);
    expect(dubbedFirst.run).toMatchObject({ answered: false, dubbedLines: 1 });
    const unanswered = report.parse((await c.get(`${P2}/get_info_by_id`, { filmId: F })).body.data);
    expect(unanswered.answers).toMatchObject({ answered: false, items: [] });
    expect(unanswered.id).toBe(dubbedFirst.run!.runId);
    const saved = (await c.postJson(`${P2}/save_question_record`, { filmId: F, answers: ALL_RIGHT })).body
      .data;
    expect(saved.runId).toBe(dubbedFirst.run!.runId);
    const history = runHistoryData.parse((await c.get(`${P2}/get_run_history`)).body.data);
    expect(history.runs).toHaveLength(1);
  });

  it('takes sent to the AI service join the run the client names, else the latest run', async () => {
    const { c, id, token } = await newLearner();
    const saved = (await c.postJson(`${P2}/save_question_record`, { filmId: AI_FILM, answers: [] })).body
      .data;
    const runA = saved.runId as string;
    const posted = await postTake(server.url, token, {
      file: fixtureWav('15a01Wa.wav'),
      takeId: 'run-take-0001',
    });
    expect(posted.body.code).toBe(200);
    // A new run; a late take of the old run names it and lands there, not in the new one.
    const runB = (await c.postJson(`${P2}/save_question_record`, { filmId: AI_FILM, answers: [] })).body.data
      .runId;
    const late = await postTake(server.url, token, { attempt: '2', takeId: 'run-take-0002', runId: runA });
    expect(late.body.code).toBe(200);
    const rows = await server.app.db
      .selectFrom('takes')
      .select(['id', 'run_id', 'audio_key'])
      .where('user_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.run_id)).toEqual([runA, runA]);
    expect(rows.every((r) => r.audio_key.startsWith(`takes/${id}/${runA}/`))).toBe(true);
    const stateB = runStateData.parse((await c.get(`${P2}/get_run`, { filmId: AI_FILM })).body.data);
    expect(stateB.run?.runId).toBe(runB);
    expect(stateB.lines).toEqual([]);
    const stateA = runStateData.parse(
      (await c.get(`${P2}/get_run`, { filmId: AI_FILM, runId: runA })).body.data,
    );
    expect(stateA.lines[0]).toMatchObject({ subtitlesId: LINES.angry, takes: 2 });
  });

  it("fills the actor's emotion and figures per line from the reference analysis, caching it", async () => {
    const { c } = await newLearner();
    await c.postJson(`${P2}/save_question_record`, { filmId: AI_FILM, answers: [] });
    const r = report.parse((await c.get(`${P2}/get_info_by_id`, { filmId: AI_FILM })).body.data);
    const byLine = new Map(r.dubbing!.lines.map((l) => [l.subtitlesId, l]));
    for (const id of [LINES.angry, LINES.neutral]) {
      const actor = byLine.get(id)!.actor;
      expect(actor).not.toBeNull();
      expect(actor!.arousal).toBeGreaterThanOrEqual(-1);
      expect(actor!.arousal).toBeLessThanOrEqual(1);
      expect(actor!.figures?.durationMs).toBeGreaterThan(500);
      expect(Object.values(actor!.probabilities!).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
    }
    // The angry actor sounds more aroused than the neutral one.
    expect(byLine.get(LINES.angry)!.actor!.arousal).toBeGreaterThan(
      byLine.get(LINES.neutral)!.actor!.arousal,
    );
    // Line 3 has no reference audio in storage.
    expect(byLine.get(LINES.noReference)!.actor).toBeNull();
    const cached = await server.app.db
      .selectFrom('reference_analyses')
      .select('subtitle_id')
      .where('subtitle_id', 'in', [LINES.angry, LINES.neutral])
      .execute();
    expect(cached).toHaveLength(2);
  });

  it('the suggestion returns the figures its text quotes', async () => {
    const { c, id } = await newLearner();
    await c.postJson(`${P2}/save_question_record`, { filmId: F, answers: ALL_RIGHT });
    const seed = (line: number, attempt: 1 | 2, overall: number, intonation: number, at: number) =>
      insertTake(server.app.db, {
        userId: id,
        filmId: F,
        subtitleId: `${F}-${line}`,
        attempt,
        overall,
        detected: 'anger',
        createdAt: `2026-06-01T10:00:0${at}.000Z`,
        scores: { intonation, energy: 33 },
      });
    await seed(1, 1, 77, 20, 1);
    await seed(2, 1, 51, 43, 2);
    await seed(3, 1, 25, 66, 3);
    for (const lang of ['zh', 'en'] as const) {
      const s = soundSuggestData.parse(
        (await c.postJson(`${P2}/get_sounds_interpretation`, { filmId: F, lang })).body.data,
      );
      expect(s.subScores).toMatchObject({ intonation: 43, energy: 33 });
      const melody = s.points!.find((p) => p.topic === 'melody')!;
      expect(melody.figures).toContain('subScores.intonation');
      expect(melody.text).toContain(lang === 'zh' ? '语调分平均 43 分' : 'intonation score averages 43');
      const overall = s.points!.find((p) => p.topic === 'overall')!;
      expect(overall.text).toContain(`${Math.round(s.figures.average!)}`);
      expect(s.points!.map((p) => p.text)).toEqual(s.audioInterpret.split('\n'));
    }
  });

  it('part one: highlights come from correct answers and the curve spans the runs', async () => {
    const { c } = await newLearner();
    const a = (await c.postJson(`${P1}/save_question_record`, { filmId: F, answers: HALF_RIGHT })).body.data;
    const b = (await c.postJson(`${P1}/save_question_record`, { filmId: F, answers: ALL_RIGHT })).body.data;
    const first = report.parse((await c.get(`${P1}/get_info_by_id`, { id: a.recordId })).body.data);
    expect(first.strengths.map((s) => s.zh).join(' ')).toContain('答对了第 1 题');
    const second = report.parse((await c.get(`${P1}/get_info_by_id`, { runId: b.runId })).body.data);
    expect(second.strengths.map((s) => s.zh).join(' ')).toContain('提高了 67 个百分点');
    expect(second.progress?.map((r) => r.answerPercent)).toEqual([33, 100]);
    expect((await c.get(`${P1}/get_info_by_id`)).body.data.field).toBe('id');
  });

  it('the H5 page shows the open question as not scored, no empty time row, and the app’s rounding', async () => {
    const { c, id } = await newLearner();
    await c.postJson(`${P2}/save_question_record`, {
      filmId: F,
      answers: [...ALL_RIGHT, { questionId: 'q3', value: '开放回答' }],
    });
    await take(id, 1, 1, 51.4, '2026-07-01T10:00:01.000Z');
    await take(id, 2, 1, 51.5, '2026-07-01T10:00:02.000Z');
    const r = report.parse((await c.get(`${P2}/get_info_by_id`, { filmId: F })).body.data);
    expect(r.dubbing!.average).toBe(51.5);
    const url = (await c.get(`${P2}/get_report_url`, { filmId: F })).body.data.url as string;
    const html = await (await fetch(url)).text();
    expect(html).toContain('不计分');
    expect(html).not.toMatch(/主观题\s*0\/5/);
    expect(html).not.toContain('用时');
    expect(html).toContain('<p class="big">52</p>');
  });
});
