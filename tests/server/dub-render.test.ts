/**
 * The rendered dubbed video (server/renders): a run dubbed with fixture takes (EmoDB speaker 15, who
 * is in no film) is rendered through get_info_by_id, fetched as the client would and decoded by
 * ffmpeg: it lasts as long as the film, each dubbed window holds the take (the actor's line gone),
 * each undubbed window the actor, and everything else is the film's background track.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { report as reportSchema } from '../../src/api/contract';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../src/audio/constants';
import { decodeWav, encodeWav16 } from '../../src/audio/dsp/wav';
import { decodeAudio, decodeVideoFrames } from '../../scripts/demo/decode-media';
import { FFMPEG_PATH, probeMedia } from '../../server/films/ffmpeg';
import { importFilmFolder } from '../../server/films/import';
import { dubVideoOf } from '../../server/renders/dub-video';
import { runForTake } from '../../server/takes/runs';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser, insertTake } from './support/seed';
import { ncc } from '../unit/audio/signals';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FILM_DIR = path.join(ROOT, 'demo', 'films', 'rag-on-the-fridge');
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'emodb');
const RATE = 16_000;
const MARGIN_MS = DEFAULT_WINDOW_MARGIN_SECONDS * 1000;
const REPORT = '/producer/active_relation_two/get_info_by_id';
/** Lines left to the actor; every other line is dubbed. */
const UNDUBBED = [4, 7];

interface FixtureTake {
  file: string;
  matchesLine: number;
  relation: string;
  speechStartMs: number;
  speechEndMs: number;
}

const cut = (x: Float32Array, fromMs: number, toMs: number) =>
  x.subarray(Math.max(0, Math.round((fromMs / 1000) * RATE)), Math.round((toMs / 1000) * RATE));

/** A take as the pipeline uploads it: 16 kHz, the window ± margin long, the speech centred in the cue. */
function windowTake(fixture: FixtureTake, cue: { startMs: number; endMs: number }): Float32Array {
  const speech = decodeWav(fs.readFileSync(path.join(FIXTURES, fixture.file))).channels[0];
  const out = new Float32Array(Math.round(((cue.endMs - cue.startMs + 2 * MARGIN_MS) / 1000) * RATE));
  const s0 = Math.round((fixture.speechStartMs / 1000) * RATE);
  const s1 = Math.round((fixture.speechEndMs / 1000) * RATE);
  const cueLen = Math.round(((cue.endMs - cue.startMs) / 1000) * RATE);
  const at = Math.round((MARGIN_MS / 1000) * RATE) + Math.round((cueLen - (s1 - s0)) / 2) - s0;
  for (let i = 0; i < speech.length; i++) if (at + i >= 0 && at + i < out.length) out[at + i] = speech[i];
  return out;
}

describeEngines('the rendered dubbed video', (engine) => {
  let server: TestServer;
  let cues: { index: number; id: string; startMs: number; endMs: number }[];
  const takes = new Map<number, Float32Array>();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dub-render-test-'));

  beforeAll(async () => {
    // One render kept per learner: the retention test's second run deletes its first run's render.
    server = await startTestServer({ engine, env: { RENDERS_KEPT_PER_LEARNER: '1' } });
    await importFilmFolder({ db: server.app.db, storage: server.app.storage }, FILM_DIR);
    const rows = await server.app.db
      .selectFrom('subtitles')
      .select(['id', 'idx', 'start_ms', 'end_ms'])
      .where('film_id', '=', 'rag-on-the-fridge')
      .orderBy('idx')
      .execute();
    cues = rows.map((r) => ({ index: r.idx, id: r.id, startMs: r.start_ms, endMs: r.end_ms }));
    const fixtures = (
      JSON.parse(fs.readFileSync(path.join(FIXTURES, 'fixtures.json'), 'utf8')) as {
        takes: FixtureTake[];
      }
    ).takes.filter((t) => t.relation === 'match');
    for (const cue of cues) {
      if (UNDUBBED.includes(cue.index)) continue;
      const fixture = fixtures.find((f) => f.matchesLine === cue.index);
      if (!fixture) throw new Error(`no fixture take for line ${cue.index}`);
      takes.set(cue.index, windowTake(fixture, cue));
    }
  }, 120_000);

  /** Stores one take (attempt, wav bytes) of a line for a learner, as the upload route would. */
  const storeTake = async (
    userId: string,
    cue: (typeof cues)[number],
    attempt: 1 | 2,
    wav: ArrayBuffer | Uint8Array,
    createdAt: string,
    runId?: string,
  ) => {
    const id = await insertTake(server.app.db, {
      userId,
      filmId: 'rag-on-the-fridge',
      subtitleId: cue.id,
      attempt,
      overall: 70,
      detected: 'neutral',
      createdAt,
      runId,
    });
    const row = await server.app.db
      .selectFrom('takes')
      .select('audio_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await server.app.storage.put(
      row.audio_key,
      Buffer.from(wav instanceof Uint8Array ? wav : new Uint8Array(wav)),
    );
  };

  /** A learner of the test's own who has dubbed every line but the undubbed ones: each test its own run. */
  const dubbedLearner = async (account: string) => {
    const user = await addUser(server.app.db, account, 'dubber-pass');
    const learner = client(server.url);
    await learner.login(account, 'dubber-pass');
    for (const cue of cues) {
      const samples = takes.get(cue.index);
      if (!samples) continue;
      const at = new Date(Date.UTC(2026, 0, 1, 10, 0, cue.index)).toISOString();
      await storeTake(user.id, cue, 1, encodeWav16(samples, RATE), at);
    }
    return { learner, userId: user.id };
  };

  afterAll(async () => {
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const dubVideo = async (learner: Client) => {
    const res = await learner.get(REPORT, { filmId: 'rag-on-the-fridge' });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return reportSchema.parse(res.body.data).dubVideo!;
  };

  it('renders once per run, H.264 + AAC at the film size and length; takes in their windows, the actor elsewhere', async () => {
    const { learner } = await dubbedLearner('dubber-once');
    expect((await dubVideo(learner)).status).toBe('rendering');
    await server.app.renders.idle();
    const ready = await dubVideo(learner);
    expect(ready).toMatchObject({ status: 'ready', message: null });
    // Asking again renders nothing new: the same file (its link is signed afresh, so compared without the signature).
    const again = await dubVideo(learner);
    expect({ ...again, url: again.url?.split('?')[0] }).toEqual({ ...ready, url: ready.url?.split('?')[0] });
    expect(server.app.renders.running).toBe(0);
    expect(await server.app.renders.waiting()).toBe(0);

    const res = await fetch(`${server.url}/producer${ready.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/video\/mp4/);
    const file = path.join(tmp, 'dub.mp4');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const probe = await probeMedia(file);
    const original = await probeMedia(path.join(FILM_DIR, 'video.mp4'));
    expect(probe.videoCodec).toBe('h264');
    expect(Math.abs(probe.durationMs - original.durationMs)).toBeLessThanOrEqual(100);
    expect(decodeVideoFrames(file)).toBeGreaterThan(0);
    const banner = spawnSync(FFMPEG_PATH, ['-hide_banner', '-i', file]).stderr.toString();
    expect(banner).toMatch(/Video: h264.* 640x360/);
    expect(banner).toMatch(/Audio: aac/);

    const dub = decodeAudio(file, RATE);
    const film = decodeAudio(path.join(FILM_DIR, 'video.mp4'), RATE);
    const background = decodeAudio(path.join(FILM_DIR, 'background.m4a'), RATE);
    expect(Math.abs(dub.length - film.length) / RATE).toBeLessThanOrEqual(0.1);
    const report: string[] = [];
    for (const cue of cues) {
      const from = cue.startMs - MARGIN_MS;
      const to = cue.endMs + MARGIN_MS;
      const take = takes.get(cue.index);
      const got = cut(dub, from, to);
      const actor = cut(film, from, to);
      if (take) {
        const withTake = ncc(got, take);
        const withActor = ncc(got, actor);
        report.push(`line ${cue.index}: take ${withTake.toFixed(3)}, actor ${withActor.toFixed(3)}`);
        expect(withTake, `line ${cue.index} is the take (${report.join('; ')})`).toBeGreaterThanOrEqual(0.9);
        expect(
          Math.abs(withActor),
          `line ${cue.index} has no actor (${report.join('; ')})`,
        ).toBeLessThanOrEqual(0.2);
      } else {
        const withActor = ncc(got, actor);
        report.push(`line ${cue.index} (actor): ${withActor.toFixed(3)}`);
        expect(withActor, `line ${cue.index} keeps the actor`).toBeGreaterThanOrEqual(0.9);
      }
    }
    // Outside every window: the background track (room tone), at its level and in its waveform.
    const windows = cues.map((c) => [c.startMs - MARGIN_MS, c.endMs + MARGIN_MS]);
    const gaps: [number, number][] = [[0, windows[0][0]]];
    for (let i = 1; i < windows.length; i++) gaps.push([windows[i - 1][1], windows[i][0]]);
    for (const [a, b] of gaps.filter(([a, b]) => b - a > 200)) {
      const got = cut(dub, a + 50, b - 50);
      const bg = cut(background, a + 50, b - 50);
      const c = ncc(got, bg);
      report.push(`gap ${a}–${b} ms: background ${c.toFixed(3)}`);
      expect(c, `gap ${a}–${b} ms is the background (${report.join('; ')})`).toBeGreaterThanOrEqual(0.9);
    }
    console.info(`[dub-render] ${report.join('; ')}`);
  }, 120_000);

  it('the H5 share page plays it without login, under its own signed link', async () => {
    const { learner } = await dubbedLearner('dubber-share');
    expect((await dubVideo(learner)).status).toBe('rendering');
    await server.app.renders.idle();
    expect((await dubVideo(learner)).status).toBe('ready');
    const link = await learner.get('/producer/active_relation_two/get_report_url', {
      filmId: 'rag-on-the-fridge',
    });
    expect(link.body.code).toBe(200);
    const pageUrl = link.body.data.url as string;
    const token = pageUrl.split('/').pop() as string;
    const page = await fetch(pageUrl.replace(/^https?:\/\/[^/]+/, server.url));
    expect(page.status).toBe(200);
    const body = await page.text();
    const src = `/producer/h5/report/${token}/dub.mp4`;
    expect(body).toContain(`<video class="dub" controls playsinline preload="metadata" src="${src}">`);
    const head = await fetch(`${server.url}${src}`, { headers: { range: 'bytes=0-99' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-type')).toBe('video/mp4');
    expect((await head.arrayBuffer()).byteLength).toBe(100);
    const [payload, mac] = token.split('.');
    const tampered = await fetch(`${server.url}/producer/h5/report/${payload}.${mac.slice(1)}x/dub.mp4`);
    expect(tampered.status).toBe(403);
  });

  it('renders again when a take changes, and deletes the previous render', async () => {
    const { learner, userId } = await dubbedLearner('dubber-again');
    await dubVideo(learner);
    await server.app.renders.idle();
    const before = await dubVideo(learner);
    expect(before.status).toBe('ready');
    const inverted = encodeWav16(
      takes.get(1)!.map((x) => -x),
      RATE,
    );
    await storeTake(userId, cues[0], 2, inverted, new Date(Date.UTC(2026, 0, 1, 11)).toISOString());
    expect((await dubVideo(learner)).status).toBe('rendering');
    await server.app.renders.idle();
    const after = await dubVideo(learner);
    expect(after.status).toBe('ready');
    expect(after.url).not.toBe(before.url);
    expect((await fetch(`${server.url}/producer${before.url}`)).status).toBe(404);
  }, 120_000);

  it('a render that fails says why', async () => {
    const { learner, userId } = await dubbedLearner('dubber-fails');
    const notAWav = new TextEncoder().encode('not a wav at all');
    await storeTake(userId, cues[1], 2, notAWav, new Date(Date.UTC(2026, 0, 1, 12)).toISOString());
    expect((await dubVideo(learner)).status).toBe('rendering');
    await server.app.renders.idle();
    const failed = await dubVideo(learner);
    expect(failed.status).toBe('failed');
    expect(failed.url).toBeNull();
    expect(failed.message).toMatch(/^配音视频生成失败，请重录一句后再试：.*ffmpeg exited/s);
  }, 120_000);

  it('a run without takes has no dubbed video, and nothing is queued', async () => {
    const silent = await addUser(server.app.db, 'silent', 'silent-pass');
    const run = await runForTake(server.app.db, silent.id, 'rag-on-the-fridge', undefined);
    const deps = { db: server.app.db, storage: server.app.storage, renders: server.app.renders };
    expect(await dubVideoOf(deps, run)).toEqual({ status: 'none', url: null, message: null });
    expect(server.app.renders.running).toBe(0);
    expect(await server.app.renders.waiting()).toBe(0);
  });

  it("a render's bytes count in the learner's daily storage, and an older run's render is deleted past the kept number", async () => {
    const { learner, userId } = await dubbedLearner('dubber-kept');
    await dubVideo(learner);
    await server.app.renders.idle();
    const first = await dubVideo(learner);
    expect(first.status).toBe('ready');
    const firstBytes = (await fetch(`${server.url}/producer${first.url}`).then((r) => r.arrayBuffer()))
      .byteLength;
    const usage = async () => {
      const row = await server.app.db
        .selectFrom('upload_usage')
        .select((eb) => eb.fn.sum<number | string>('bytes').as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    };
    expect(await usage()).toBe(firstBytes);
    // A second run of the same film, dubbed: its render is the one kept.
    const firstRun = await runForTake(server.app.db, userId, 'rag-on-the-fridge', undefined);
    const at = new Date(Date.UTC(2026, 0, 2)).toISOString();
    const secondRun = `${firstRun.id}-2`;
    await server.app.db
      .insertInto('runs')
      .values({
        id: secondRun,
        user_id: userId,
        film_id: 'rag-on-the-fridge',
        part: 'prpt',
        started_at: at,
        updated_at: at,
        dubbed_lines: 0,
      })
      .execute();
    const cue = cues[0];
    await storeTake(userId, cue, 1, encodeWav16(takes.get(cue.index)!, RATE), at, secondRun);
    const second = async () => {
      const res = await learner.get(REPORT, { runId: secondRun });
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      return reportSchema.parse(res.body.data).dubVideo!;
    };
    expect((await second()).status).toBe('rendering');
    await server.app.renders.idle();
    const kept = await second();
    expect(kept.status).toBe('ready');
    const keptBytes = (await fetch(`${server.url}/producer${kept.url}`).then((r) => r.arrayBuffer()))
      .byteLength;
    expect(await usage()).toBe(firstBytes + keptBytes);
    // The first run's render is gone, file and row; opening its report queues it again.
    expect((await fetch(`${server.url}/producer${first.url}`)).status).toBe(404);
    const rows = await server.app.db
      .selectFrom('dub_renders')
      .select('run_id')
      .where('user_id', '=', userId)
      .execute();
    expect(rows.map((r) => r.run_id)).toEqual([secondRun]);
    const again = await learner.get(REPORT, { runId: firstRun.id });
    expect(reportSchema.parse(again.body.data).dubVideo?.status).toBe('rendering');
    await server.app.renders.idle();
  }, 120_000);
});
