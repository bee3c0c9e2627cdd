import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, reportUrlData, runHistoryData } from '../../src/api/contract';
import { createShareToken, shareSecret } from '../../server/reports/share-link';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';
import { ALL_RIGHT } from './support/film-fixture';

const P1 = '/producer/active_relation_one';
const P2 = '/producer/active_relation_two';

describeEngines('reports, share links and the sound suggestion', (engine) => {
  let server: TestServer;
  let demo: Client;
  let prpoRecord: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await importFixtureFilm(server);
    demo = client(server.url);
    await demo.login('demo', 'demo123456');
    const saved = await demo.postJson(`${P1}/save_question_record`, {
      filmId: 'test-film',
      answers: ALL_RIGHT,
      durationMs: 61_000,
    });
    prpoRecord = saved.body.data.recordId;
  });
  afterAll(() => server?.close());

  let learners = 0;
  /** A learner of its own, so each test starts from nothing whatever ran before it. */
  async function newLearner(): Promise<{ c: Client; id: string }> {
    learners += 1;
    const account = `learner${learners}`;
    await addUser(server.app.db, account, 'learner-pass');
    const c = client(server.url);
    const { id } = await c.login(account, 'learner-pass');
    return { c, id };
  }

  it('prpo: returns the computed report of a record by id', async () => {
    const res = await demo.get(`${P1}/get_info_by_id`, { id: prpoRecord });
    expect(res.body.code).toBe(200);
    const r = report.parse(res.body.data);
    expect(r).toMatchObject({ id: prpoRecord, part: 'prpo', durationMs: 61_000, dubbing: null });
    expect(r.learner.nickname).toBe('演示学员');
    expect(r.film).toMatchObject({ id: 'test-film', title: '测试影片' });
    expect(r.answers).toMatchObject({ score: 30, maxScore: 30, percent: 100 });
    expect(r.answers.items[0]).toMatchObject({
      questionId: 'q1',
      correct: true,
      prompt: { zh: '甲说了什么？' },
    });
    expect(r.strengths[0].zh).toContain('100%');
  });

  it('time spent covers answering and dubbing, and the report carries the time its history row shows', async () => {
    const { c: me, id: myId } = await newLearner();
    const saved = await me.postJson(`${P2}/save_question_record`, {
      filmId: 'test-film',
      answers: ALL_RIGHT,
      durationMs: 95_000,
    });
    expect(saved.body.code).toBe(200);
    const runId = saved.body.data.runId as string;
    const record = await server.app.db
      .selectFrom('question_records')
      .select('created_at')
      .where('id', '=', saved.body.data.recordId)
      .executeTakeFirstOrThrow();
    // The last take of the run comes five minutes after the answers were saved.
    const lastTake = new Date(Date.parse(record.created_at) + 300_000).toISOString();
    await insertTake(server.app.db, {
      userId: myId,
      filmId: 'test-film',
      subtitleId: 'test-film-1',
      attempt: 1,
      overall: 70,
      detected: 'happiness',
      createdAt: lastTake,
      runId,
    });
    await server.app.db.updateTable('runs').set({ updated_at: lastTake }).where('id', '=', runId).execute();
    const r = report.parse((await me.get(`${P2}/get_info_by_id`, { filmId: 'test-film' })).body.data);
    expect(r.durationMs).toBe(95_000 + 300_000);
    const history = runHistoryData.parse(
      (await me.get(`${P2}/get_run_history`, { filmId: 'test-film' })).body.data,
    );
    const row = history.runs.find((h) => h.runId === runId);
    expect(row?.updatedAt).toBe(lastTake);
    expect(r.createdAt).toBe(row?.updatedAt);
  });

  it("another learner's record answers not found", async () => {
    const { c: other } = await newLearner();
    const res = await other.get(`${P1}/get_info_by_id`, { id: prpoRecord });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
    const url = await other.get(`${P1}/get_report_url`, { id: prpoRecord });
    expect(url.body.code).toBe(404);
    // Part two with no training yet: a clear message.
    const latest = await other.get(`${P2}/get_info_by_id`, undefined, { 'content-type': 'application/json' });
    expect(latest.body.code).toBe(404);
    expect(latest.body.msg).toContain('还没有第二部分的训练记录');
  });

  it('prpt: the empty payload returns the latest training with first and second attempts per line', async () => {
    const { c: me, id: myId } = await newLearner();
    await me.postJson(`${P2}/save_question_record`, {
      filmId: 'test-film',
      answers: [
        { questionId: 'q1', value: 'b' },
        { questionId: 'q2', value: ['a', 'b'] },
      ],
    });
    const f = 'test-film';
    const db = server.app.db;
    // Line 1: first 50 (wrong emotion), retried twice: the latest second attempt (80, happiness) counts.
    await insertTake(db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 1,
      overall: 50,
      detected: 'sadness',
      createdAt: '2026-01-01T00:00:01.000Z',
    });
    await insertTake(db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 1,
      overall: 99,
      detected: 'sadness',
      createdAt: '2026-01-01T00:00:02.000Z',
    });
    await insertTake(db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 2,
      overall: 60,
      detected: 'neutral',
      createdAt: '2026-01-01T00:00:03.000Z',
    });
    await insertTake(db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 2,
      overall: 80,
      detected: 'happiness',
      createdAt: '2026-01-01T00:00:04.000Z',
      scores: { timing: 20 },
      clear: true,
    });
    // Line 2: one attempt, emotion matches the annotated anger.
    await insertTake(db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-2`,
      attempt: 1,
      overall: 70,
      detected: 'anger',
      createdAt: '2026-01-01T00:00:05.000Z',
      scores: { timing: 40 },
      clear: true,
    });

    const res = await me.get(`${P2}/get_info_by_id`, undefined, { 'content-type': 'application/json' });
    expect(res.body.code).toBe(200);
    const r = report.parse(res.body.data);
    expect(r.part).toBe('prpt');
    expect(r.answers.percent).toBe(67);
    const d = r.dubbing!;
    expect(d.lines).toHaveLength(3);
    expect(d.lines[0].first?.overall).toBe(50);
    expect(d.lines[0].second?.overall).toBe(80);
    expect(d.lines[1].first?.overall).toBe(70);
    expect(d.lines[1].second).toBeNull();
    expect(d.lines[2].first).toBeNull();
    expect(d.scoredLines).toBe(2);
    expect(d.average).toBe(75);
    expect(d.improvement).toBe(30);
    expect(d.emotionMatchRate).toBe(1);
    // Feedback comes from the figures: timing is the weakest sub-score.
    expect(r.practice?.zh).toContain('节奏');
    expect(r.practice?.en).toContain('timing');
    expect(r.strengths.map((s) => s.en).join(' ')).toContain('30 points higher');
  });

  it('emotionMatchRate is the share of scored lines heard clearly enough to name whose emotion score reaches 60 (src/audio/scoring/aggregate.ts); an unclear or silent take is not counted', async () => {
    const { c: me, id: myId } = await newLearner();
    const f = 'test-film';
    const take = (line: number, emotion: number, clear: boolean | undefined, at: number, speech = true) =>
      insertTake(server.app.db, {
        userId: myId,
        filmId: f,
        subtitleId: `${f}-${line}`,
        attempt: 1,
        overall: 60,
        scores: { emotion },
        detected: 'sadness',
        createdAt: `2026-05-09T00:00:0${at}.000Z`,
        clear,
        speech,
      });
    const rate = async () => {
      const res = await me.get(`${P2}/get_info_by_id`, { filmId: f });
      return report.parse(res.body.data).dubbing?.emotionMatchRate;
    };
    // Line 1 (target happiness): emotion score 70 but not heard clearly ("no clear emotion heard"):
    // no emotion match is claimed for it.
    await take(1, 70, false, 1);
    expect(await rate()).toBeNull();
    // The phone page words it as the app does: no emotion named for an unclear reading.
    const link = (await me.get(`${P2}/get_report_url`, { filmId: f })).body.data.url;
    const h5 = await (await fetch(link)).text();
    expect(h5).toContain('听不出明显的情绪');
    expect(h5).not.toContain('悲伤');
    // Line 2 (target anger): heard clearly, emotion score 30: 0 of 1.
    await take(2, 30, true, 2);
    expect(await rate()).toBe(0);
    // Line 1 again (its second attempt counts): heard clearly, emotion score 80: 1 of 2.
    await insertTake(server.app.db, {
      userId: myId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 2,
      overall: 60,
      scores: { emotion: 80 },
      detected: 'happiness',
      createdAt: '2026-05-09T00:00:04.000Z',
      clear: true,
    });
    expect(await rate()).toBe(0.5);
    // Line 3: no speech: no score, so not a line whose emotion missed.
    await take(3, 0, undefined, 3, false);
    expect(await rate()).toBe(0.5);
  });

  it('get_report_url signs an expiring link to a page that shows that one report without login', async () => {
    const res = await demo.get(`${P1}/get_report_url`, { id: prpoRecord });
    expect(res.body.code).toBe(200);
    const data = reportUrlData.parse(res.body.data);
    const days = (Date.parse(data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const url = new URL(data.url);
    expect(url.pathname).toMatch(/^\/producer\/h5\/report\/[^/]+$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('测试影片');
    expect(html).toContain('100%');
    expect(html).toContain('演示学员');

    // prpt: no id → the latest part-two record.
    const { c: me } = await newLearner();
    await me.postJson(`${P2}/save_question_record`, { filmId: 'test-film', answers: ALL_RIGHT });
    const latest = await me.get(`${P2}/get_report_url`);
    expect(latest.body.code).toBe(200);
    expect(await (await fetch(latest.body.data.url)).text()).toContain('配音');
  });

  it("the shared page follows the language chosen on the kiosk, else the phone's, Chinese first", async () => {
    const { url } = (await demo.get(`${P1}/get_report_url`, { id: prpoRecord })).body.data;
    const zh = await (await fetch(url)).text();
    expect(zh).toContain('<html lang="zh-CN">');
    expect(zh).toContain('训练报告');
    expect(zh).toContain('学员');
    const viaKiosk = await fetch(`${url}?lang=en`);
    expect(viaKiosk.headers.get('content-language')).toBe('en');
    const en = await viaKiosk.text();
    const viaPhone = await (await fetch(url, { headers: { 'accept-language': 'en-US,en;q=0.9' } })).text();
    for (const page of [en, viaPhone]) {
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('Training report');
      expect(page).toContain('Learner');
      expect(page).not.toContain('训练报告');
      expect(page).not.toContain('<span>学员</span>');
      // A time spent reads "0 min 15 s", never "0 分 15 秒".
      expect(page).not.toMatch(/\d+ 分 \d+ 秒/);
    }
    // The kiosk's choice wins over the phone's.
    const chosen = await (await fetch(`${url}?lang=zh`, { headers: { 'accept-language': 'en' } })).text();
    expect(chosen).toContain('训练报告');
  });

  it('the shared page names the product and switches language with two links, no script', async () => {
    const { url } = (await demo.get(`${P1}/get_report_url`, { id: prpoRecord })).body.data;
    const path = new URL(url).pathname;
    const zh = await (await fetch(url)).text();
    expect(zh).toContain('<span class="brand">光影声台</span>');
    expect(zh).toContain('<nav class="langs" aria-label="语言">');
    expect(zh).toContain(
      `<a href="${path}?lang=zh" lang="zh-CN" hreflang="zh-CN" aria-current="true">中文</a>`,
    );
    expect(zh).toContain(`<a href="${path}?lang=en" lang="en" hreflang="en">English</a>`);
    // The page's policy allows no script, and the switch needs none.
    expect(zh).not.toContain('<script');
    const en = await (await fetch(`${url}?lang=en`)).text();
    expect(en).toContain('<span class="brand">Film Speech Trainer</span>');
    expect(en).toContain(`<a href="${path}?lang=en" lang="en" hreflang="en" aria-current="true">English</a>`);
  });

  it('a tampered link answers 403 and an expired one 410, with a clear page', async () => {
    const { url } = (await demo.get(`${P1}/get_report_url`, { id: prpoRecord })).body.data;
    const [payload, mac] = url.split('/').pop().split('.');
    const forged = Buffer.from(JSON.stringify({ r: 'someone-else', e: Date.now() + 1e9 })).toString(
      'base64url',
    );
    const base = `${server.url}/producer/h5/report`;
    for (const bad of [`${forged}.${mac}`, `${payload}.${mac.slice(0, -2)}xx`, 'garbage']) {
      const res = await fetch(`${base}/${bad}`);
      expect(res.status).toBe(403);
      const text = await res.text();
      expect(text).toContain('链接无效');
      // The page speaks the learner's language: the one chosen on the kiosk (`lang`).
      expect(await (await fetch(`${base}/${bad}?lang=en`)).text()).toContain('Invalid link');
      // The app's icon is inlined: the page asks for no /favicon.ico.
      expect(text).toContain('<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,');
    }
    const secret = await shareSecret(server.app.db);
    const old = createShareToken(secret, prpoRecord, Date.now() - 8 * 86_400_000);
    const expired = await fetch(`${base}/${old.token}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('链接已过期');
  });

  it('sound suggestion: no recordings → 404 with the message; with takes → the text and the figures it quotes', async () => {
    const { c: fresh } = await newLearner();
    const none = await fresh.postJson(`${P2}/get_sounds_interpretation`, { filmId: 'test-film', lang: 'zh' });
    expect(none.status).toBe(404);
    // The row's id beside its Chinese msg, for the client to word in the learner's language.
    expect(none.body).toEqual({
      code: 404,
      msg: '还没有配音记录，请先完成配音',
      data: { msgId: 'error.noTakes' },
    });
    const bad = await demo.postJson(`${P2}/get_sounds_interpretation`, { filmId: 'test-film', lang: 'fr' });
    expect(bad.body.data.field).toBe('lang');

    const { c: me, id: myId } = await newLearner();
    const f = 'test-film';
    const seed = (line: number, attempt: 1 | 2, overall: number, second: number) =>
      insertTake(server.app.db, {
        userId: myId,
        filmId: f,
        subtitleId: `${f}-${line}`,
        attempt,
        overall,
        detected: 'happiness',
        target: 'happiness',
        createdAt: `2026-01-02T00:00:0${second}.000Z`,
      });
    await seed(1, 1, 40, 1);
    await seed(1, 2, 60, 2);
    await seed(2, 1, 80, 3);
    const res = await me.postJson(`${P2}/get_sounds_interpretation`, { filmId: f, lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      filmId: f,
      lang: 'en',
      // Version-1 takes never named their emotion: no emotion match is claimed for them.
      figures: { scoredLines: 2, totalLines: 3, average: 70, improvement: 20, emotionMatchRate: null },
    });
    const text: string = res.body.data.audioInterpret;
    expect(text.split('\n')[0]).toBe('Overall: 2/3 lines dubbed, average 70.');
    expect(text).toContain('+20.0 points');
  });
});
