import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, runHistoryData, soundSuggestData } from '../../src/api/contract';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';
import { ALL_RIGHT } from './support/film-fixture';

// One run, one set of figures (src/audio/scoring/aggregate.ts, docs/architecture.md "One rule for a
// run's figures"): the report, its H5 page, the voice tips in both languages, the run history and the
// film list all show the same counts and averages — the latest take per line, a take without speech
// counted as recorded but not scored.
const P2 = '/producer/active_relation_two';
const F = 'test-film';

describeEngines("one rule for a run's figures on every page", (engine) => {
  let server: TestServer;
  let me: Client;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await importFixtureFilm(server);
    await addUser(server.app.db, 'figures', 'figures-pass');
    me = client(server.url);
    const { id } = await me.login('figures', 'figures-pass');
    await me.postJson(`${P2}/save_question_record`, {
      filmId: F,
      answers: ALL_RIGHT,
    });
    const take = (line: number, attempt: 1 | 2, overall: number, at: number, speech = true) =>
      insertTake(server.app.db, {
        userId: id,
        filmId: F,
        subtitleId: `${F}-${line}`,
        attempt,
        overall,
        detected: 'happiness',
        target: 'happiness',
        createdAt: `2026-03-01T00:00:0${at}.000Z`,
        clear: true,
        speech,
      });
    // Line 1: 40, then a retake of 50 (the latest counts; emotion 50 does not reach 60).
    await take(1, 1, 40, 1);
    await take(1, 2, 50, 2);
    // Line 2: 80 (emotion 80 reaches 60).
    await take(2, 1, 80, 3);
    // Line 3: silence (the scorer's 0 is no score).
    await take(3, 1, 0, 4, false);
  });
  afterAll(() => server?.close());

  it('report, H5 page, voice tips (zh and en), run history and film list agree on every figure', async () => {
    const expected = {
      totalLines: 3,
      dubbedLines: 3,
      scoredLines: 2,
      silentLines: 1,
      average: 65,
      improvement: 10,
      emotionMatchRate: 0.5,
      emotionAverage: 65,
    };

    const r = report.parse((await me.get(`${P2}/get_info_by_id`, { filmId: F })).body.data);
    const d = r.dubbing!;
    expect({
      totalLines: d.lines.length,
      dubbedLines: d.dubbedLines,
      scoredLines: d.scoredLines,
      silentLines: d.silentLines,
      average: d.average,
      improvement: d.improvement,
      emotionMatchRate: d.emotionMatchRate,
      emotionAverage: d.emotionAverage,
    }).toEqual(expected);
    // The silent take is marked as such on its line.
    expect(d.lines[2].first?.speechDetected).toBe(false);
    expect(d.lines[1].first?.speechDetected).toBe(true);
    // The report's feedback quotes the same emotion average (the weakest or strongest sub-score).
    const feedback = [...r.strengths.map((s) => s.en), r.practice?.en ?? ''].join(' ');
    expect(feedback).not.toMatch(/average 43/);

    for (const lang of ['zh', 'en'] as const) {
      const tips = soundSuggestData.parse(
        (await me.postJson(`${P2}/get_sounds_interpretation`, { filmId: F, lang })).body.data,
      );
      expect({
        totalLines: tips.figures.totalLines,
        dubbedLines: tips.figures.dubbedLines,
        scoredLines: tips.figures.scoredLines,
        silentLines: tips.figures.silentLines,
        average: tips.figures.average,
        improvement: tips.figures.improvement,
        emotionMatchRate: tips.figures.emotionMatchRate,
        emotionAverage: tips.figures.emotionAverage,
      }).toEqual(expected);
      expect(tips.subScores?.emotion).toBe(expected.emotionAverage);
      const first = tips.audioInterpret.split('\n')[0];
      // The overall statement counts what the figures count.
      expect(first).toContain(lang === 'zh' ? '3/3' : '3/3');
      expect(first).toContain(lang === 'zh' ? '1 句没有听到说话' : 'no speech was heard in 1 of them');
      expect(first).toContain(lang === 'zh' ? '平均 65 分' : 'average 65');
    }

    const history = runHistoryData.parse((await me.get(`${P2}/get_run_history`, { filmId: F })).body.data);
    expect(history.runs[0]).toMatchObject({
      dubbedLines: expected.dubbedLines,
      totalLines: expected.totalLines,
      dubbingAverage: expected.average,
    });

    const films = (await me.get(`${P2}/show_film_picture`, { page: '1', pageSize: '50' })).body.data.list as {
      id: string;
      progress: { dubbedLines: number; totalLines: number };
    }[];
    expect(films.find((f) => f.id === F)?.progress).toMatchObject({
      dubbedLines: expected.dubbedLines,
      totalLines: expected.totalLines,
    });

    const link = (await me.get(`${P2}/get_report_url`, { filmId: F })).body.data.url as string;
    const h5 = await (await fetch(link)).text();
    // The heading counts what the report counts (scored of all lines), above every dubbed line.
    expect(h5).toContain(`配音 · 已评分 ${expected.scoredLines}/${expected.totalLines} 句`);
    expect(h5).toMatch(/class="big">65</);
    expect(h5).toContain('第二次比第一次平均 +10.0 分');
    // No emotion is named for a take without speech.
    expect(h5).toContain('<span>没有听到说话，请重录 → —</span>');
    expect(h5).toContain('情绪对上（听得出情绪的台词中）50%');
    expect(h5).toContain('情绪平均 65 分');
    expect(h5).toContain('1 句没有听到说话');
  });
});
