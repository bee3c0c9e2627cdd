import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ffmpeg, probeMedia } from '../../server/films/ffmpeg';
import { decodeAudio } from '../../scripts/demo/decode-media';
import { Code } from '../../src/api/contract';
import { encodeWav16 } from '../../src/audio/dsp/wav';
import { type DubRenderInput, renderDubVideo } from '../../server/renders/dub-render';
import { RenderQueue, type RenderQueueOptions } from '../../server/renders/render-queue';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';
import { ncc } from '../unit/audio/signals';

const REPORT = '/producer/active_relation_two/get_info_by_id';

/** A render of `video`'s first 60 s with its own audio only, into `dir`/dub.mp4. */
const renderOf = (video: string, dir: string, signal?: AbortSignal): DubRenderInput => ({
  video,
  background: null,
  durationMs: 60_000,
  actor: [],
  dubbed: [],
  takes: [],
  out: path.join(dir, 'dub.mp4'),
  signal,
});

describe('the dubbed-video render', () => {
  it('an abort before the start runs no ffmpeg and writes no video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-abort-'));
    const stop = new AbortController();
    stop.abort();
    try {
      await expect(
        renderDubVideo(renderOf(path.resolve('demo/films/the-rehearsal/video.mp4'), dir, stop.signal)),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an abort while ffmpeg writes settles after ffmpeg is gone and leaves no partial video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-abort-'));
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    try {
      // A picture that is not H.264, so the render encodes it: long enough to be stopped midway.
      const video = path.join(dir, 'film.avi');
      await ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=640x360:rate=25:duration=60',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=220:sample_rate=44100:duration=60',
        '-c:v',
        'mpeg4',
        '-q:v',
        '5',
        '-c:a',
        'pcm_s16le',
        video,
      ]);
      const stop = new AbortController();
      // Stopped as soon as ffmpeg has created its output: the moment a careless render leaves it behind.
      const watcher = fs.watch(out, () => {
        if (fs.readdirSync(out).length > 0) stop.abort();
      });
      try {
        await expect(renderDubVideo(renderOf(video, out, stop.signal))).rejects.toMatchObject({
          name: 'AbortError',
        });
      } finally {
        watcher.close();
      }
      expect(stop.signal.aborted).toBe(true);
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a finished render is whole under its name, with no temporary file beside it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-whole-'));
    try {
      await renderDubVideo({
        ...renderOf(path.resolve('demo/films/the-rehearsal/video.mp4'), dir),
        durationMs: 2000,
      });
      expect(fs.readdirSync(dir)).toEqual(['dub.mp4']);
      const probe = await probeMedia(path.join(dir, 'dub.mp4'));
      expect(probe.hasVideo && probe.hasAudio).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the render graph without a background track', () => {
  it('plays the original outside the dubbed windows, silences it inside, and overlapping takes both whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-graph-'));
    try {
      const RATE = 16_000;
      const video = path.join(dir, 'film.mp4');
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=10:duration=6'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=6'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', video],
      ]);
      // Two takes of noise whose windows overlap by 0.5 s: they cannot share one lane.
      let seed = 7;
      const noise = (seconds: number) =>
        new Float32Array(seconds * RATE).map(() => {
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          return (seed / 2 ** 31 - 0.5) * 0.5;
        });
      const takes = [
        { samples: noise(2), clipStartMs: 1000 },
        { samples: noise(2), clipStartMs: 2500 },
      ].map((t, k) => {
        const file = path.join(dir, `take-${k}.wav`);
        fs.writeFileSync(file, Buffer.from(encodeWav16(t.samples, RATE)));
        return { ...t, file, durationMs: 2000 };
      });
      await renderDubVideo({
        ...renderOf(video, dir),
        durationMs: 6000,
        dubbed: takes.map((t) => ({ fromMs: t.clipStartMs, toMs: t.clipStartMs + 2000 })),
        takes: takes.map(({ file, clipStartMs, durationMs }) => ({ file, clipStartMs, durationMs })),
      });
      const out = decodeAudio(path.join(dir, 'dub.mp4'), RATE);
      const film = decodeAudio(video, RATE);
      const at = (x: Float32Array, fromMs: number, toMs: number) =>
        x.subarray((fromMs * RATE) / 1000, (toMs * RATE) / 1000);
      expect(Math.abs(out.length - 6 * RATE)).toBeLessThanOrEqual(RATE / 10);
      // Outside the windows: the original.
      expect(ncc(at(out, 100, 900), at(film, 100, 900))).toBeGreaterThanOrEqual(0.9);
      expect(ncc(at(out, 4600, 5900), at(film, 4600, 5900))).toBeGreaterThanOrEqual(0.9);
      // Inside: each take where it plays alone, both where they overlap, no original.
      const [one, two] = takes.map((t) => t.samples);
      expect(ncc(at(out, 1100, 2400), one.subarray(0.1 * RATE, 1.4 * RATE))).toBeGreaterThanOrEqual(0.9);
      expect(ncc(at(out, 3100, 4400), two.subarray(0.6 * RATE, 1.9 * RATE))).toBeGreaterThanOrEqual(0.9);
      const both = one.subarray(1.5 * RATE, 2 * RATE).map((x, i) => x + two[i]);
      expect(ncc(at(out, 2500, 3000), both)).toBeGreaterThanOrEqual(0.9);
      expect(Math.abs(ncc(at(out, 1100, 4400), at(film, 1100, 4400)))).toBeLessThanOrEqual(0.1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * A render that records its run and holds until released, so the test decides when each ends; the
 * order renders start in is the queue's order.
 */
function recorder() {
  const ran: string[] = [];
  const releases = new Map<string, () => void>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const render = async (runId: string, signal: AbortSignal) => {
    ran.push(runId);
    for (const w of waiters.filter((x) => ran.length >= x.n)) w.resolve();
    await new Promise<void>((resolve) => {
      releases.set(runId, resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  };
  return {
    ran,
    render,
    /** Resolves once `n` renders have started. */
    started: (n: number) =>
      ran.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    release: (runId: string) => releases.get(runId)?.(),
  };
}

describeEngines('the render queue', (engine) => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    // The app's own queue renders nothing: each test runs queues of its own on the app's database.
    server = await startTestServer({
      engine,
      env: { RENDER_CONCURRENCY: '0', RENDER_WAITING_PER_LEARNER: '2', TAKES_UPLOAD_MB_PER_DAY: '1' },
    });
    await importFixtureFilm(server);
  }, 60_000);
  afterAll(() => server?.close());

  /** A learner with `count` runs of the fixture film (no takes: the recorder renders nothing). */
  const learner = async (count: number) => {
    const user = await addUser(server.app.db, `queue-learner-${++n}`);
    const runs = [];
    for (let k = 0; k < count; k++) {
      const at = new Date(Date.UTC(2026, 0, 1, 10, 0, k)).toISOString();
      const run = { id: `run-${user.id}-${k}`, user_id: user.id };
      await server.app.db
        .insertInto('runs')
        .values({
          ...run,
          film_id: 'test-film',
          part: 'prpt',
          started_at: at,
          updated_at: at,
          dubbed_lines: 0,
        })
        .execute();
      runs.push(run);
    }
    return runs;
  };

  const queue = (r: ReturnType<typeof recorder>, extra: Partial<RenderQueueOptions> = {}) =>
    new RenderQueue({
      db: server.app.db,
      concurrency: 1,
      waitingPerLearner: 5,
      waitingTotal: 50,
      quotaBytesPerDay: 0,
      render: r.render,
      ...extra,
    });

  /** Ends every test's queue rows, so one test's waiting renders are not the next one's. */
  const clear = () => server.app.db.deleteFrom('dub_renders').execute();

  /** a asks for 3 renders, then (a's first running) b for 2 and c for 1: they run a, b, c, a, b, a. */
  const inTurn = async () => {
    await clear();
    const [a, b, c] = [await learner(3), await learner(2), await learner(1)];
    const r = recorder();
    const q = queue(r);
    try {
      for (const run of a) await q.request(run, 'sig');
      await r.started(1);
      for (const run of [...b, ...c]) await q.request(run, 'sig');
      expect(await q.waiting()).toBe(5);
      for (let k = 1; k < 6; k++) {
        r.release(r.ran[k - 1]);
        await r.started(k + 1);
      }
      // a's first render was running when b and c asked: then b, c, a, b, a.
      expect(r.ran).toEqual([a[0].id, b[0].id, c[0].id, a[1].id, b[1].id, a[2].id]);
      r.release(r.ran[5]);
      await q.idle();
      expect(await q.waiting()).toBe(0);
    } finally {
      await q.close();
    }
  };

  it('takes learners in turn: a learner who asked for many renders does not hold back the others', inTurn);

  it('takes learners in turn when every render starts within the same millisecond', async () => {
    // A fast render queue claims several renders per millisecond: the clock standing still makes
    // every start time collide, which an equal start time would settle by request order instead.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 5, 1, 12) });
    try {
      await inTurn();
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds across instances: two queues on one database claim each render once, in the same turn order', async () => {
    await clear();
    const [a, b] = [await learner(4), await learner(1)];
    const r = recorder();
    const one = queue(r);
    const two = queue(r);
    try {
      for (const run of a) await one.request(run, 'sig');
      two.kick();
      await r.started(2);
      await two.request(b[0], 'sig');
      expect(new Set(r.ran).size).toBe(2);
      // Whichever instance frees a slot first takes b, not a's third.
      r.release(r.ran[0]);
      await r.started(3);
      expect(r.ran[2]).toBe(b[0].id);
      for (const id of [r.ran[1], r.ran[2]]) r.release(id);
      await r.started(4);
      r.release(r.ran[3]);
      await r.started(5);
      r.release(r.ran[4]);
      await Promise.all([one.idle(), two.idle()]);
      expect([...r.ran].sort()).toEqual([...a, ...b].map((x) => x.id).sort());
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('caps the waiting renders per learner and in total with a 429 that says why, in Chinese then English', async () => {
    await clear();
    const [a, b, c] = [await learner(3), await learner(1), await learner(1)];
    const idle = queue(recorder(), { concurrency: 0, waitingPerLearner: 2, waitingTotal: 3 });
    await idle.request(a[0], 'sig');
    await idle.request(a[1], 'sig');
    // Asking again for a run that already waits keeps its place and is never refused.
    await idle.request(a[0], 'sig-2');
    const mine = await idle.request(a[2], 'sig').catch((e: unknown) => e);
    expect(mine).toMatchObject({
      httpStatus: 429,
      code: Code.RATE_LIMITED,
      data: { waiting: 2, limit: 2, retryAfterSeconds: 60 },
    });
    expect((mine as Error).message).toMatch(
      /^你已有 2 个配音视频在排队生成.*\(2 of your dubbed videos are waiting/,
    );
    await idle.request(b[0], 'sig');
    const full = await idle.request(c[0], 'sig').catch((e: unknown) => e);
    expect(full).toMatchObject({ httpStatus: 429, data: { waiting: 3, limit: 3 } });
    expect((full as Error).message).toMatch(/^排队生成的配音视频太多.*\(too many dubbed videos are waiting/);
    expect(await idle.waiting()).toBe(3);
    await idle.close();
  });

  it('a render whose instance died is queued again after its lease; one stopped by a shutdown at once', async () => {
    await clear();
    const [a] = [await learner(2)];
    const r = recorder();
    const dying = queue(r);
    await dying.request(a[0], 'sig');
    await r.started(1);
    // Shut down mid-render: the row goes back to the queue, not left claimed.
    await dying.close();
    const row = await server.app.db
      .selectFrom('dub_renders')
      .select('status')
      .where('run_id', '=', a[0].id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('queued');
    // A claim whose heartbeat lapsed (its instance gone without a shutdown) is taken over.
    await server.app.db
      .updateTable('dub_renders')
      .set({ status: 'rendering', updated_at: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('run_id', '=', a[0].id)
      .execute();
    const next = recorder();
    const heir = queue(next);
    try {
      heir.kick();
      await next.started(1);
      expect(next.ran).toEqual([a[0].id]);
      next.release(a[0].id);
      await heir.idle();
    } finally {
      await heir.close();
    }
  });

  /** A signed-in learner with `count` runs of the fixture film, one take in each. */
  const dubber = async (count: number) => {
    const account = `queue-dubber-${++n}`;
    const user = await addUser(server.app.db, account, 'dubber-pass');
    const line = await server.app.db
      .selectFrom('subtitles')
      .select('id')
      .where('film_id', '=', 'test-film')
      .orderBy('idx')
      .executeTakeFirstOrThrow();
    const runs: string[] = [];
    for (let k = 0; k < count; k++) {
      const at = new Date(Date.UTC(2026, 0, 1, 10, 0, k)).toISOString();
      const runId = `run-${user.id}-${k}`;
      await server.app.db
        .insertInto('runs')
        .values({
          id: runId,
          user_id: user.id,
          film_id: 'test-film',
          part: 'prpt',
          started_at: at,
          updated_at: at,
          dubbed_lines: 0,
        })
        .execute();
      await insertTake(server.app.db, {
        userId: user.id,
        filmId: 'test-film',
        subtitleId: line.id,
        attempt: 1,
        overall: 70,
        detected: 'neutral',
        createdAt: at,
        runId,
      });
      runs.push(runId);
    }
    const http = client(server.url);
    await http.login(account, 'dubber-pass');
    return { http, runs, userId: user.id };
  };

  it('the report answers 429 in the envelope when the learner has too many renders waiting; the share page says why', async () => {
    await clear();
    const { http, runs } = await dubber(3);
    for (const runId of runs.slice(0, 2)) {
      const res = await http.get(REPORT, { runId });
      expect(res.body.code).toBe(200);
      expect(res.body.data.dubVideo).toEqual({ status: 'rendering', url: null, message: null });
    }
    const refused = await http.get(REPORT, { runId: runs[2] });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: Code.RATE_LIMITED, data: { waiting: 2, limit: 2 } });
    expect(refused.body.msg).toBe('你已有 2 个配音视频在排队生成，请等它们完成后再打开这份报告');
    // A run already waiting is answered as before.
    expect((await http.get(REPORT, { runId: runs[0] })).body.code).toBe(200);
    const link = await http.get('/producer/active_relation_two/get_report_url', { runId: runs[2] });
    const page = await fetch((link.body.data.url as string).replace(/^https?:\/\/[^/]+/, server.url));
    expect(page.status).toBe(200);
    // The page (in the kiosk's language, Chinese here) says why the video is not there yet.
    expect(await page.text()).toContain('排队生成的配音视频太多，请稍后再打开这份报告');
  });

  it("no render is queued once the learner's daily storage is used up", async () => {
    await clear();
    const { http, runs, userId } = await dubber(1);
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    await server.app.db
      .insertInto('upload_usage')
      .values({ user_id: userId, hour, bytes: 1024 * 1024 })
      .execute();
    const refused = await http.get(REPORT, { runId: runs[0] });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: Code.RATE_LIMITED, data: { limitBytes: 1024 * 1024 } });
    expect(refused.body.msg).toBe('24 小时内的存储额度（录音和配音视频共 1 MB）已用完，配音视频稍后才能生成');
    expect(await server.app.renders.waiting()).toBe(0);
  });
});
