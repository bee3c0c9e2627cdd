import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import { BACKGROUND_RATE, DUCK_DB, decodeMono } from '../../server/films/background';
import { ffmpeg } from '../../server/films/ffmpeg';
import { describeBackground, FilmImportError, importFilmFolder } from '../../server/films/import';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../src/audio/constants';
import { filmManifest } from '../../server/films/manifest';
import { checkCueTimes, parseSubtitles } from '../../server/films/subtitle-parse';
import { formatMmSs } from '../../server/lib/time-format';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { FIXTURE_SRT, fixtureManifest, makeFilmFolder } from './support/film-fixture';

describe('subtitle parsing', () => {
  it('reads srt and vtt cues with times in ms', () => {
    const srt = parseSubtitles(FIXTURE_SRT, 'srt');
    expect(srt.map((c) => [c.startMs, c.endMs, c.text])).toEqual([
      [500, 1800, '你好，世界。'],
      [2000, 3250, '我们走吧！'],
      [3500, 5000, '再见。'],
    ]);
    const vtt = parseSubtitles(
      'WEBVTT\n\nNOTE hi\n\n00:01.000 --> 00:02.500 align:start\nHello\nthere\n',
      'vtt',
    );
    expect(vtt).toEqual([{ index: 1, startMs: 1000, endMs: 2500, text: 'Hello\nthere', line: 5 }]);
  });

  it('names the line of a bad time', () => {
    expect(() => parseSubtitles('1\n00:00:01,000 --> 00:00:xx,000\nHi\n', 'srt')).toThrow(
      /^line 2: bad time/,
    );
  });

  it('finds overlapping and out-of-range cues', () => {
    const cues = parseSubtitles(
      '1\n00:00:01,000 --> 00:00:03,000\nA\n\n2\n00:00:02,000 --> 00:00:04,000\nB\n',
      'srt',
    );
    expect(checkCueTimes(cues, 10_000)?.message).toBe('line 6: cue 2 overlaps cue 1');
    expect(checkCueTimes(cues.slice(0, 1), 2_000)?.message).toMatch(
      /^line 2: cue 1 ends at .* after the end of the video/,
    );
  });

  it('formats subtitle times as mm:ss, with milliseconds only when needed', () => {
    expect(formatMmSs(0)).toBe('00:00');
    expect(formatMmSs(65_000)).toBe('01:05');
    expect(formatMmSs(61_250)).toBe('01:01.250');
    expect(formatMmSs(3_725_000)).toBe('62:05');
  });

  it('the fixture manifest matches the film.json schema', () => {
    expect(filmManifest.safeParse(fixtureManifest('x')).success).toBe(true);
  });
});

describeEngines('film import', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());
  const deps = () => ({ db: server.app.db, storage: server.app.storage });

  const importError = async (folder: string): Promise<FilmImportError> => {
    try {
      await importFilmFolder(deps(), folder);
    } catch (err) {
      expect(err).toBeInstanceOf(FilmImportError);
      return err as FilmImportError;
    }
    throw new Error('expected the import to fail');
  };

  it('imports a folder: film, lines with reference audio, questions with the answer key', async () => {
    const result = await importFilmFolder(deps(), await makeFilmFolder('imp'));
    expect(result).toMatchObject({ id: 'imp', lines: 3, questions: 3 });
    expect(result.durationMs).toBeGreaterThan(5_900);
    const db = server.app.db;
    const film = await db.selectFrom('films').selectAll().where('id', '=', 'imp').executeTakeFirstOrThrow();
    expect(JSON.parse(film.parts)).toEqual(['prpo', 'prpt']);
    const subs = await db
      .selectFrom('subtitles')
      .selectAll()
      .where('film_id', '=', 'imp')
      .orderBy('idx')
      .execute();
    expect(subs.map((s) => s.id)).toEqual(['imp-1', 'imp-2', 'imp-3']);
    for (const s of subs) {
      const wav = await server.app.storage.get(s.reference_audio_key);
      // 16 kHz mono 16-bit: bytes of data ≈ duration × 32 000.
      const expected = ((s.end_ms - s.start_ms) / 1000) * 32_000;
      expect(Math.abs(wav.length - 44 - expected)).toBeLessThan(3_200);
    }
    const q = await db
      .selectFrom('questions')
      .selectAll()
      .where('film_id', '=', 'imp')
      .orderBy('idx')
      .execute();
    expect(JSON.parse(q[1].answer)).toEqual(['a', 'b']);
    expect(await server.app.storage.get(film.track_key).then(String)).toMatch(/^WEBVTT/);
  });

  it('re-import replaces the film, keeps learner data and drops the old media', async () => {
    const db = server.app.db;
    await importFilmFolder(deps(), await makeFilmFolder('reimp'));
    const before = await db
      .selectFrom('films')
      .selectAll()
      .where('id', '=', 'reimp')
      .executeTakeFirstOrThrow();
    const again = await makeFilmFolder('reimp', (m) => {
      m.title = '新标题';
      m.questions = m.questions?.slice(0, 1);
    });
    await importFilmFolder(deps(), again);
    const after = await db
      .selectFrom('films')
      .selectAll()
      .where('id', '=', 'reimp')
      .executeTakeFirstOrThrow();
    expect(after.title).toBe('新标题');
    expect(after.created_at).toBe(before.created_at);
    expect(after.video_key).not.toBe(before.video_key);
    expect(await server.app.storage.stat(before.video_key)).toBeNull();
    expect(await server.app.storage.stat(after.video_key)).not.toBeNull();
    expect(
      (await db.selectFrom('subtitles').select('id').where('film_id', '=', 'reimp').execute()).length,
    ).toBe(3);
    expect(
      (await db.selectFrom('questions').select('id').where('film_id', '=', 'reimp').execute()).length,
    ).toBe(1);
    expect((await db.selectFrom('films').select('id').where('id', '=', 'reimp').execute()).length).toBe(1);
  });

  /** The stored background of a film, decoded at the background rate. */
  const storedBackground = async (id: string): Promise<Float32Array> => {
    const film = await server.app.db
      .selectFrom('films')
      .select('background_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(film.background_key).toMatch(/background\.m4a$/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bg-')), 'background.m4a');
    fs.writeFileSync(file, await server.app.storage.get(film.background_key!));
    return decodeMono(file);
  };
  const rmsDb = (x: Float32Array, fromMs: number, toMs: number): number => {
    const a = Math.round((fromMs / 1000) * BACKGROUND_RATE);
    const b = Math.round((toMs / 1000) * BACKGROUND_RATE);
    let e = 0;
    for (let i = a; i < b; i++) e += x[i] * x[i];
    return 10 * Math.log10(e / (b - a) + 1e-20);
  };

  it('without a background file, derives one by ducking the original ≥ 24 dB inside every window', async () => {
    const result = await importFilmFolder(deps(), await makeFilmFolder('derived'));
    expect(result.background).toEqual({ source: 'derived', duckDb: DUCK_DB, windows: 3 });
    expect(describeBackground(result.background)).toMatch(
      /derived .* ducked 30 dB inside 3 subtitle windows/,
    );
    const folder = await makeFilmFolder('derived-src');
    const original = await decodeMono(path.join(folder, 'video.mp4'));
    const background = await storedBackground('derived');
    expect(Math.abs(background.length - original.length)).toBeLessThan(BACKGROUND_RATE * 0.05);
    const margin = DEFAULT_WINDOW_MARGIN_SECONDS * 1000;
    // Each cue widened by the take margin (the region a take may fill), less 30 ms of codec smear.
    for (const [start, end] of [
      [500, 1800],
      [2000, 3250],
      [3500, 5000],
    ]) {
      const from = start - margin + 30;
      const to = end + margin - 30;
      expect(
        rmsDb(original, from, to) - rmsDb(background, from, to),
        `${start}–${end} ms`,
      ).toBeGreaterThanOrEqual(24);
    }
    // Away from every window the original is kept.
    expect(Math.abs(rmsDb(original, 5350, 5900) - rmsDb(background, 5350, 5900))).toBeLessThan(1);
  });

  it('a supplied background.wav is stored (as AAC) instead, and one of the wrong length is refused', async () => {
    const tone = (dir: string, seconds: number) =>
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
        '-y',
        path.join(dir, 'background.wav'),
      ]);
    const dir = await makeFilmFolder('supplied');
    await tone(dir, 6);
    const result = await importFilmFolder(deps(), dir);
    expect(result.background).toEqual({ source: 'supplied', file: 'background.wav' });
    const background = await storedBackground('supplied');
    // Not ducked: as loud inside a window as after the last one.
    expect(Math.abs(rmsDb(background, 800, 1500) - rmsDb(background, 5350, 5900))).toBeLessThan(1);

    const short = await makeFilmFolder('shortbg');
    await tone(short, 3);
    const err = await importError(short);
    expect(err.file).toBe(path.join(short, 'background.wav'));
    expect(err.message).toMatch(/background track lasts 3\.\d+ s but the video 6\.\d+ s/);
  });

  it('bad JSON: names film.json and the line', async () => {
    const dir = await makeFilmFolder('badjson');
    fs.writeFileSync(path.join(dir, 'film.json'), '{\n  "id": "x",\n  "title": oops\n}');
    const err = await importError(dir);
    expect(err.file).toBe(path.join(dir, 'film.json'));
    expect(err.message).toContain('invalid JSON at line 3');
  });

  it('schema errors: names every wrong field', async () => {
    const dir = await makeFilmFolder('badschema', (m) => {
      (m as { id: string }).id = 'Bad Id';
      m.questions![0].answer = ['z'];
    });
    const err = await importError(dir);
    expect(err.message).toContain('id: use a lower-case slug');
    expect(err.message).toContain('questions.0.answer: answer "z" is not an option id');
  });

  it("stores the film's declared language, null without one, and refuses a tag that is not a primary tag", async () => {
    const db = server.app.db;
    const languageOf = async (id: string) =>
      (await db.selectFrom('films').select('language').where('id', '=', id).executeTakeFirstOrThrow())
        .language;
    await importFilmFolder(
      deps(),
      await makeFilmFolder('lang-en', (m) => {
        m.language = 'en';
      }),
    );
    expect(await languageOf('lang-en')).toBe('en');
    await importFilmFolder(deps(), await makeFilmFolder('lang-none'));
    expect(await languageOf('lang-none')).toBeNull();
    const bad = await makeFilmFolder('lang-bad', (m) => {
      (m as { language: string }).language = 'English';
    });
    expect((await importError(bad)).message).toContain(
      'language: use the BCP 47 primary language tag in lower case, e.g. "en", "zh" or "de"',
    );
  });

  it('missing files: names the file', async () => {
    const dir = await makeFilmFolder('nofile');
    fs.rmSync(path.join(dir, 'poster.jpg'));
    const err = await importError(dir);
    expect(err.file).toBe(path.join(dir, 'poster.jpg'));
    expect(err.message).toContain('missing poster');
  });

  it('subtitle problems: names the subtitle file and line', async () => {
    const overlap = await makeFilmFolder('overlap', (_m, dir) => {
      fs.writeFileSync(
        path.join(dir, 'subtitles.srt'),
        FIXTURE_SRT.replace('00:00:02,000 -->', '00:00:01,500 -->'),
      );
    });
    expect((await importError(overlap)).message).toMatch(/subtitles\.srt: line 6: cue 2 overlaps cue 1/);

    const late = await makeFilmFolder('late', (_m, dir) => {
      fs.writeFileSync(path.join(dir, 'subtitles.srt'), FIXTURE_SRT.replace('00:00:05,000', '00:00:09,000'));
    });
    expect((await importError(late)).message).toMatch(
      /line 10: cue 3 ends at 00:00:09.000, after the end of the video/,
    );

    const broken = await makeFilmFolder('broken', (_m, dir) => {
      fs.writeFileSync(path.join(dir, 'subtitles.srt'), FIXTURE_SRT.replace('00:00:03,250', '00:00:3.25'));
    });
    expect((await importError(broken)).message).toMatch(/subtitles\.srt: line 6: bad time/);
  });

  it('lines[] that do not match the cues: says how many of each', async () => {
    const dir = await makeFilmFolder('mismatch', (m) => {
      m.lines = m.lines.slice(0, 2);
    });
    expect((await importError(dir)).message).toContain('lines has 2 entries but subtitles.srt has 3 cues');
  });

  it('a file that is not a video: names it', async () => {
    const dir = await makeFilmFolder('notvideo', (_m, d) => {
      fs.writeFileSync(path.join(d, 'video.mp4'), 'this is not a video');
    });
    const err = await importError(dir);
    expect(err.file).toBe(path.join(dir, 'video.mp4'));
  });

  it('a failed import writes nothing', async () => {
    const snapshot = async () => ({
      films: (await server.app.db.selectFrom('films').select('id').orderBy('id').execute()).map((f) => f.id),
      dirs: fs.existsSync(path.join(server.config.dataDir, 'media', 'films'))
        ? fs.readdirSync(path.join(server.config.dataDir, 'media', 'films')).sort()
        : [],
    });
    const before = await snapshot();
    await importError(
      await makeFilmFolder('broken', (_m, dir) =>
        fs.writeFileSync(path.join(dir, 'video.mp4'), 'not a video'),
      ),
    );
    await importError(await makeFilmFolder('broken', (m) => m.lines.pop()));
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.films).not.toContain('broken');
  });
});
