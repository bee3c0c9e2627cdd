import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, reportUrlData } from '../../src/api/contract';
import { createShareToken } from '../../server/reports/share-link';
import { SHARE_SECRET_KEY } from '../../server/routes/producer/reports';
import { sharedSecret } from '../../server/lib/settings';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';

const P1 = '/producer/active_relation_one';
const P2 = '/producer/active_relation_two';
const ALL_RIGHT = [
  { questionId: 'q1', value: 'a' },
  { questionId: 'q2', value: ['a', 'b'] },
];

describeEngines('reports, share links and the sound suggestion', (engine) => {
  let server: TestServer;
  let demo: Client;
  let demoId: string;
  let prpoRecord: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await importFixtureFilm(server);
    demo = client(server.url);
    demoId = (await demo.login('demo', 'demo123456')).id;
    const saved = await demo.postJson(`${P1}/save_question_record`, {
      filmId: 'test-film',
      answers: ALL_RIGHT,
      durationMs: 61_000,
    });
    prpoRecord = saved.body.data.recordId;
  });
  afterAll(() => server?.close());

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

  it("another learner's record answers not found", async () => {
    await addUser(server.app.db, 'other', 'other-pass');
    const other = client(server.url);
    await other.login('other', 'other-pass');
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
    await demo.postJson(`${P2}/save_question_record`, {
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
      userId: demoId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 1,
      overall: 50,
      detected: 'sadness',
      createdAt: '2026-01-01T00:00:01.000Z',
    });
    await insertTake(db, {
      userId: demoId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 1,
      overall: 99,
      detected: 'sadness',
      createdAt: '2026-01-01T00:00:02.000Z',
    });
    await insertTake(db, {
      userId: demoId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 2,
      overall: 60,
      detected: 'neutral',
      createdAt: '2026-01-01T00:00:03.000Z',
    });
    await insertTake(db, {
      userId: demoId,
      filmId: f,
      subtitleId: `${f}-1`,
      attempt: 2,
      overall: 80,
      detected: 'happiness',
      createdAt: '2026-01-01T00:00:04.000Z',
      scores: { timing: 20 },
    });
    // Line 2: one attempt, emotion matches the annotated anger.
    await insertTake(db, {
      userId: demoId,
      filmId: f,
      subtitleId: `${f}-2`,
      attempt: 1,
      overall: 70,
      detected: 'anger',
      createdAt: '2026-01-01T00:00:05.000Z',
      scores: { timing: 40 },
    });

    const res = await demo.get(`${P2}/get_info_by_id`, undefined, { 'content-type': 'application/json' });
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
    expect(r.practice?.zh).toContain('节奏与停顿');
    expect(r.practice?.en).toContain('timing');
    expect(r.strengths.map((s) => s.en).join(' ')).toContain('30 points higher');
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
    const latest = await demo.get(`${P2}/get_report_url`);
    expect(latest.body.code).toBe(200);
    expect(await (await fetch(latest.body.data.url)).text()).toContain('配音');
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
      expect(text).toContain('invalid');
    }
    const secret = await sharedSecret(server.app.db, SHARE_SECRET_KEY);
    const old = createShareToken(secret, prpoRecord, Date.now() - 8 * 86_400_000);
    const expired = await fetch(`${base}/${old.token}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('链接已过期');
  });

  it('sound suggestion: no recordings → 404 with the message; with takes → the interpreter or a clear 503', async () => {
    await addUser(server.app.db, 'fresh', 'fresh-pass');
    const fresh = client(server.url);
    await fresh.login('fresh', 'fresh-pass');
    const none = await fresh.postJson(`${P2}/get_sounds_interpretation`, { filmId: 'test-film', lang: 'zh' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: 404, msg: '还没有配音记录，请先完成配音', data: null });
    const bad = await demo.postJson(`${P2}/get_sounds_interpretation`, { filmId: 'test-film', lang: 'fr' });
    expect(bad.body.data.field).toBe('lang');
    const withTakes = await demo.postJson(`${P2}/get_sounds_interpretation`, {
      filmId: 'test-film',
      lang: 'en',
    });
    if (withTakes.body.code === 200) {
      expect(withTakes.body.data.filmId).toBe('test-film');
      expect(typeof withTakes.body.data.audioInterpret).toBe('string');
    } else {
      expect(withTakes.body.code).toBe(503);
      expect(withTakes.body.msg).toContain('尚未就绪');
    }
  });
});
