import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { speechScore } from '../../src/api/contract';
import type { FsMediaStorage } from '../../server/storage/fs-storage';
import { cleanOrphanTakes } from '../../server/takes/retention';
import {
  AI_FILM,
  fixtureWav,
  floatStereoFrom,
  LINES,
  postTake,
  seedAiFilm,
  silentWav,
} from '../server/ai-support';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

const P2 = '/producer/active_relation_two';
const KB = 1024;

/** A fresh learner on the server: id, token and an API client. */
async function learner(server: TestServer, account: string) {
  await addUser(server.app.db, account, 'learner-pass');
  const c = client(server.url);
  const { id, token } = await c.login(account, 'learner-pass');
  return { id, token, c };
}

const takesOf = (server: TestServer, userId: string) =>
  server.app.db
    .selectFrom('takes')
    .select(['id', 'run_id', 'subtitle_id', 'attempt', 'audio_key', 'overall', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describeEngines('take storage bounds', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // One retake kept besides a line's first and latest take.
    server = await startTestServer({
      engine,
      env: { TAKES_RETAKES_KEPT: '1', TAKES_ATTEMPTS_PER_LINE: '10' },
    });
    await seedAiFilm(server.app);
  });
  afterAll(() => server?.close());

  it("keeps the report's takes and one recent retake per line and run, deleting the rest with their audio", async () => {
    const me = await learner(server, 'retainer');
    const runA = (await me.c.postJson(`${P2}/save_question_record`, { filmId: AI_FILM, answers: [] })).body
      .data.runId;
    const files = ['15a01Wa.wav', '15a02Wd.wav', '15a07Ac.wav', '15a02Wb.wav'];
    const scores = [];
    for (const [k, f] of files.entries()) {
      const res = await postTake(server.url, me.token, { file: fixtureWav(f), attempt: k === 0 ? '1' : '2' });
      expect(res.body.code).toBe(200);
      scores.push(speechScore.parse(res.body.data));
    }
    const rows = await takesOf(server, me.id);
    // Kept: the first, the latest, and the newest retake between them; the second take is gone.
    expect(rows.map((r) => r.overall)).toEqual([scores[0].overall, scores[2].overall, scores[3].overall]);
    expect(rows.every((r) => r.run_id === runA)).toBe(true);
    const deleted = scores[1].audioUrl.split('?')[0].replace(/^\/media\//, '');
    expect(await server.app.storage.stat(deleted)).toBeNull();
    for (const r of rows) expect(await server.app.storage.stat(r.audio_key)).not.toBeNull();
    // The report still shows the first and the latest take.
    const report = (await me.c.get(`${P2}/get_info_by_id`, { filmId: AI_FILM })).body.data;
    const line = report.dubbing.lines.find((l: { subtitlesId: string }) => l.subtitlesId === LINES.angry);
    expect([line.first.overall, line.second.overall]).toEqual([scores[0].overall, scores[3].overall]);
  });

  it('cleans audio without rows and rows without audio at start, leaving fresh files alone', async () => {
    const me = await learner(server, 'orphaned');
    const storage = server.app.storage as FsMediaStorage;
    const old = Date.now() - 3_600_000;
    const orphan = `takes/${me.id}/some-run/orphan.wav`;
    const fresh = `takes/${me.id}/some-run/being-stored.wav`;
    await storage.put(orphan, Buffer.from(silentWav(0.5)));
    await storage.put(fresh, Buffer.from(silentWav(0.5)));
    fs.utimesSync(storage.localPath(orphan), old / 1000, old / 1000);
    const kept = await postTake(server.url, me.token, {
      file: fixtureWav('15a01Nb.wav'),
      subtitlesId: LINES.neutral,
    });
    expect(kept.body.code).toBe(200);
    const [row] = await takesOf(server, me.id);
    fs.utimesSync(storage.localPath(row.audio_key), old / 1000, old / 1000);
    const ghost = `${row.id}-ghost`;
    await server.app.db
      .insertInto('takes')
      .values({
        id: ghost,
        user_id: me.id,
        film_id: AI_FILM,
        subtitle_id: LINES.neutral,
        attempt: 2,
        audio_key: `takes/${me.id}/${row.run_id}/${ghost}.wav`,
        result: '{}',
        overall: 1,
        speech: 1,
        created_at: new Date(old).toISOString(),
        run_id: row.run_id,
      })
      .execute();

    const cleaned = await cleanOrphanTakes(server.app.db, storage);
    expect(cleaned.files).toBeGreaterThanOrEqual(1);
    expect(cleaned.rows).toBeGreaterThanOrEqual(1);
    expect(await storage.stat(orphan)).toBeNull();
    expect(await storage.stat(fresh)).not.toBeNull();
    expect(await storage.stat(row.audio_key)).not.toBeNull();
    expect((await takesOf(server, me.id)).map((r) => r.id)).toEqual([row.id]);
  });
});

describeEngines('daily upload limit', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { TAKES_UPLOAD_MB_PER_DAY: '0.125' } });
    await seedAiFilm(server.app);
  });
  afterAll(() => server?.close());

  it('refuses uploads past the 24-hour limit with a 429 envelope, storing nothing, even in parallel', async () => {
    const me = await learner(server, 'uploader');
    // 128 KB allows two ~54 KB takes; five at once must let exactly two through.
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((k) =>
        postTake(server.url, me.token, { file: fixtureWav('15a01Wa.wav'), takeId: `quota-${k}-take` }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe(429);
      expect(r.body.msg).toBe('24 小时内上传的录音已达上限（0.1 MB），请稍后再试');
      expect(r.body.data).toMatchObject({ limitBytes: 128 * KB, retryAfterSeconds: 3600 });
    }
    expect(await takesOf(server, me.id)).toHaveLength(2);
    const usage = await server.app.db
      .selectFrom('upload_usage')
      .select('bytes')
      .where('user_id', '=', me.id)
      .execute();
    expect(usage.reduce((s, u) => s + Number(u.bytes), 0)).toBeLessThanOrEqual(128 * KB);
  });
});

describeEngines('non-finite samples and the learner statistics', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await seedAiFilm(server.app);
  });
  afterAll(() => server?.close());

  const statsCount = async (userId: string) =>
    (
      await server.app.db
        .selectFrom('speaker_stats')
        .select('count')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.count ?? 0;

  it('refuses a float take with one NaN or Inf sample with a clear 400, and scores the clean take as before', async () => {
    const me = await learner(server, 'floaty');
    const clean = floatStereoFrom(fixtureWav('15a01Wa.wav'));
    const before = await postTake(server.url, me.token, { file: clean });
    expect(before.body.code).toBe(200);
    for (const [name, value] of [
      ['NaN', Number.NaN],
      ['Inf', Number.POSITIVE_INFINITY],
      ['-Inf', Number.NEGATIVE_INFINITY],
    ] as const) {
      const bad = clean.slice();
      new DataView(bad.buffer).setFloat32(44 + 4000 * 8 + 4, value, true); // one sample, right channel
      const res = await postTake(server.url, me.token, { file: bad });
      expect(res.status, name).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.data).toMatchObject({ field: 'file', reason: 'non_finite_samples', count: 1 });
      expect(res.body.msg).toMatch(/^录音含有 1 个无效采样值（NaN 或无穷大）/);
    }
    const after = await postTake(server.url, me.token, { file: clean });
    expect(speechScore.parse(after.body.data).overall).toBe(speechScore.parse(before.body.data).overall);
    expect(await takesOf(server, me.id)).toHaveLength(2);
  });

  it('folds only takes with speech into the learner statistics', async () => {
    const me = await learner(server, 'noisy');
    const noise = new Uint8Array(silentWav(2));
    const view = new DataView(noise.buffer);
    let seed = 42;
    for (let o = 44; o + 1 < noise.length; o += 2) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      view.setInt16(o, (seed % 65536) - 32768, true);
    }
    for (const file of [silentWav(1), noise, silentWav(2)]) {
      const res = await postTake(server.url, me.token, { file, subtitlesId: LINES.noReference });
      expect(res.body.code).toBe(200);
      expect(res.body.data.quality.speechDetected).toBe(false);
    }
    expect(await statsCount(me.id)).toBe(0);
    const speech = await postTake(server.url, me.token, {
      file: fixtureWav('15a07Ac.wav'),
      subtitlesId: LINES.noReference,
    });
    expect(speech.body.code).toBe(200);
    expect(await statsCount(me.id)).toBe(1);
  });
});
