/**
 * Checks the committed demo content itself (demo/films and tests/fixtures), not the builder:
 * every film validates against the importer's schema, every media file decodes fully with the
 * shipped ffmpeg, every subtitle window holds its line's speech with near silence between, every
 * question has a valid key, and the learner fixtures match their manifest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emotion } from '../../src/api/contract';
import { DEFAULT_WINDOW_MARGIN_SECONDS, TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { decodeAudio, decodeVideoFrames } from '../../scripts/demo/decode-media';
import { runFfmpeg } from '../../scripts/demo/ffmpeg';
import { NARRATION_SCENES, SCENES } from '../../scripts/demo/scenes';
import { SENTENCES } from '../../scripts/demo/sentences';
import { measureWindows, peakFrameDb, rmsDb, type Window } from '../../scripts/demo/speech-energy';
import { readWav } from '../../scripts/demo/wav-io';
import { type FilmManifest, filmManifest } from '../../server/films/manifest';
import { parseSubtitles } from '../../server/films/subtitle-parse';
import { startTestServer, type TestServer } from '../support/server';

const root = path.resolve(import.meta.dirname, '..', '..');
const filmsDir = path.join(root, 'demo', 'films');
const fixturesDir = path.join(root, 'tests', 'fixtures');
const RATE = TARGET_SAMPLE_RATE;
const MARGIN_MS = DEFAULT_WINDOW_MARGIN_SECONDS * 1000;

/** Speech in a window must be at least this loud, and this far above the loudest gap. */
const MIN_SPEECH_DBFS = -40;
const MIN_SPEECH_OVER_GAP_DB = 20;
/** Between lines (away from the cue edges by GAP_GUARD_MS) the track must be near silence. */
const MAX_GAP_DBFS = -50;
const GAP_GUARD_MS = 150;
/**
 * Speech must reach the cue edges: the first and last EDGE_MS of each window hold a frame this far
 * above the loudest gap (the builder's own onset rule is 12 dB over the take's floor) and this loud.
 */
const EDGE_MS = 100;
const EDGE_OVER_GAP_DB = 12;
const MIN_EDGE_DBFS = -50;

const filmIds = fs.existsSync(filmsDir)
  ? fs
      .readdirSync(filmsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
  : [];

function readFilmJson(id: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(filmsDir, id, 'film.json'), 'utf8'));
}

function loadFilm(id: string): FilmManifest {
  return filmManifest.parse(readFilmJson(id));
}

/** The language a film.json declares (read raw: the importer's schema may not list the field). */
function declaredLanguage(id: string): unknown {
  return (readFilmJson(id) as { language?: unknown }).language;
}

/** 4.5 MiB: the four German films take about 2.9 MB, the English and Mandarin ones about 1.6 MB. */
const MAX_DEMO_BYTES = 4.5 * 1024 * 1024;

/** Asserts voice fills each window (edges included) and near silence fills the gaps between them. */
function expectSpeechOnlyInWindows(samples: Float32Array, windows: Window[], label: string): void {
  const m = measureWindows(samples, RATE, windows, { guardMs: GAP_GUARD_MS, edgeMs: EDGE_MS });
  expect(m.gaps.length, `${label}: gaps between lines`).toBeGreaterThanOrEqual(windows.length - 1);
  m.gapDb.forEach((db, i) => {
    const g = m.gaps[i];
    expect(db, `${label}: gap ${g.startMs.toFixed(0)}–${g.endMs.toFixed(0)} ms`).toBeLessThan(MAX_GAP_DBFS);
  });
  const loudestGap = Math.max(...m.gapDb);
  const voiced = Math.max(loudestGap + EDGE_OVER_GAP_DB, MIN_EDGE_DBFS);
  windows.forEach((w, i) => {
    const where = `${label}: line ${i + 1} (${w.startMs}–${w.endMs} ms)`;
    expect(m.speechDb[i], where).toBeGreaterThan(MIN_SPEECH_DBFS);
    expect(m.speechDb[i] - loudestGap, `${where} over the loudest gap`).toBeGreaterThan(
      MIN_SPEECH_OVER_GAP_DB,
    );
    expect(m.onsetDb[i], `${where} onset`).toBeGreaterThan(voiced);
    expect(m.offsetDb[i], `${where} offset`).toBeGreaterThan(voiced);
  });
}

const KNOWN_SENTENCES = new Set(Object.values(SENTENCES).map((s) => s.german));

describe('demo films', () => {
  it('has the German, English and Mandarin films the builder lists, at least two in each part, under 4.5 MiB in all', () => {
    expect(filmIds).toEqual([...SCENES, ...NARRATION_SCENES].map((s) => s.id).sort());
    const films = filmIds.map(loadFilm);
    expect(films.filter((f) => f.parts.includes('prpo')).length).toBeGreaterThanOrEqual(2);
    expect(films.filter((f) => f.parts.includes('prpt')).length).toBeGreaterThanOrEqual(2);
    let bytes = 0;
    for (const id of filmIds) {
      for (const f of fs.readdirSync(path.join(filmsDir, id)))
        bytes += fs.statSync(path.join(filmsDir, id, f)).size;
    }
    expect(bytes).toBeLessThan(MAX_DEMO_BYTES);
  });

  it.each(['en', 'zh'])(
    'has a film in %s that can be dubbed, so the word check shows on a fresh install',
    (lang) => {
      const dubbable = filmIds.filter(
        (id) => declaredLanguage(id) === lang && loadFilm(id).parts.includes('prpt'),
      );
      expect(dubbable.length, `prpt films declaring "${lang}"`).toBeGreaterThanOrEqual(1);
    },
  );

  describe.each(filmIds)('%s', (id) => {
    const dir = path.join(filmsDir, id);
    const film = loadFilm(id);
    /** English and Mandarin read speech; every other film is a German EmoDB dialogue. */
    const narration = NARRATION_SCENES.find((s) => s.id === id);
    const cues = parseSubtitles(fs.readFileSync(path.join(dir, film.subtitles), 'utf8'), 'srt');

    it('film.json matches the importer schema and its folder name', () => {
      expect(film.id).toBe(id);
      for (const text of [film.synopsis, ...film.roles.map((r) => r.description)]) {
        expect(text.zh.length).toBeGreaterThan(0);
        expect(text.en.length).toBeGreaterThan(0);
      }
    });

    if (!narration) {
      it('has 6–10 lines by two or more roles with at least three emotions', () => {
        expect(film.lines.length).toBeGreaterThanOrEqual(6);
        expect(film.lines.length).toBeLessThanOrEqual(10);
        const roles = new Set(film.roles.map((r) => r.name));
        for (const line of film.lines) {
          expect(roles.has(line.speaker), `line ${line.index} speaker ${line.speaker}`).toBe(true);
          expect(emotion.safeParse(line.targetEmotion).success, `line ${line.index} emotion`).toBe(true);
          expect(line.translation.zh.length * line.translation.en.length).toBeGreaterThan(0);
        }
        expect(new Set(film.lines.map((l) => l.speaker)).size).toBeGreaterThanOrEqual(2);
        expect(new Set(film.lines.map((l) => l.targetEmotion)).size).toBeGreaterThanOrEqual(3);
      });
    } else {
      it('declares its language and has 5–10 read lines by its roles, with no target emotion', () => {
        expect(declaredLanguage(id)).toBe(narration.language);
        expect(film.lines.length).toBeGreaterThanOrEqual(5);
        expect(film.lines.length).toBeLessThanOrEqual(10);
        const roles = new Set(film.roles.map((r) => r.name));
        expect(roles.size).toBeGreaterThanOrEqual(1);
        for (const line of film.lines) {
          expect(roles.has(line.speaker), `line ${line.index} speaker ${line.speaker}`).toBe(true);
          // The recordings carry no emotion label: the actor's own reading is the target.
          expect(line.targetEmotion, `line ${line.index} emotion`).toBeNull();
          expect(line.translation.zh.length * line.translation.en.length).toBeGreaterThan(0);
        }
      });
    }

    it('has one srt cue per line, numbered in order, each the sentence its voice says, 0.6–1.2 s apart', () => {
      expect(cues.map((c) => c.index)).toEqual(film.lines.map((l) => l.index));
      if (narration) expect(cues.map((c) => c.text)).toEqual(narration.lines.map((l) => l.text));
      else
        for (const cue of cues)
          expect(KNOWN_SENTENCES.has(cue.text), `cue ${cue.index}: ${cue.text}`).toBe(true);
      for (let i = 1; i < cues.length; i++) {
        const gap = cues[i].startMs - cues[i - 1].endMs;
        expect(gap, `gap before cue ${cues[i].index}`).toBeGreaterThanOrEqual(600);
        expect(gap, `gap before cue ${cues[i].index}`).toBeLessThanOrEqual(1200);
      }
    });

    it('has 4–6 questions with valid answer keys, mixing single, multiple and open text', () => {
      expect(film.questions.length).toBeGreaterThanOrEqual(4);
      expect(film.questions.length).toBeLessThanOrEqual(6);
      for (const q of film.questions) {
        const ids = q.options.map((o) => o.id);
        expect(new Set(ids).size, `${q.id} option ids unique`).toBe(ids.length);
        for (const a of q.answer) expect(ids, `${q.id} answer ${a}`).toContain(a);
        if (q.kind === 'single') expect(q.answer, q.id).toHaveLength(1);
        if (q.kind === 'multiple') expect(new Set(q.answer).size, q.id).toBe(q.answer.length);
        if (q.kind === 'multiple') expect(q.answer.length, q.id).toBeGreaterThanOrEqual(1);
        if (q.kind === 'text') {
          expect(q.options, q.id).toEqual([]);
          expect(q.answer, q.id).toEqual([]);
        } else {
          expect(q.options.length, q.id).toBeGreaterThanOrEqual(2);
        }
        for (const text of [q.prompt, q.explanation, ...q.options.map((o) => o.label)]) {
          expect(text.zh.length * text.en.length, q.id).toBeGreaterThan(0);
        }
      }
      expect(new Set(film.questions.map((q) => q.kind))).toEqual(new Set(['single', 'multiple', 'text']));
    });

    it('has a poster that decodes as a 480×270 JPEG', () => {
      const file = path.join(dir, film.poster);
      expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const grey = runFfmpeg(['-xerror', '-i', file, '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1']);
      expect(grey.byteLength).toBe(480 * 270);
    });

    it('has a video whose picture and sound decode fully and last past the last line', () => {
      const file = path.join(dir, film.video);
      const audio = decodeAudio(file, RATE);
      const audioMs = (audio.length / RATE) * 1000;
      const lastEnd = cues[cues.length - 1].endMs;
      expect(audioMs).toBeGreaterThan(lastEnd + 500);
      expect(audioMs).toBeLessThan(lastEnd + 3000);
      // 15 fps; allow a frame of rounding at either end.
      expect(Math.abs(decodeVideoFrames(file) - (audioMs / 1000) * 15)).toBeLessThanOrEqual(2);
    });

    it('has a voice-free background track as long as the video: room tone only, inside windows too', () => {
      expect(film.background).toBe('background.m4a');
      const video = decodeAudio(path.join(dir, film.video), RATE);
      const background = decodeAudio(path.join(dir, film.background!), RATE);
      expect(Math.abs(background.length - video.length)).toBeLessThan(RATE * 0.05);
      expect(rmsDb(background, RATE, 0, (background.length / RATE) * 1000)).toBeLessThan(MAX_GAP_DBFS);
      for (const cue of cues) {
        expect(rmsDb(background, RATE, cue.startMs, cue.endMs), `line ${cue.index}`).toBeLessThan(
          MAX_GAP_DBFS,
        );
      }
    });

    it("has speech inside every subtitle window and near silence between (decoded from the video's sound)", () => {
      const audio = decodeAudio(path.join(dir, film.video), RATE);
      expectSpeechOnlyInWindows(audio, cues, id);
    });
  });
});

describe('demo films through the importer (what npm start does on an empty database)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ importDemo: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('imports every film with all its lines, and every cut reference line holds its speech', async () => {
    const films = await server.app.db
      .selectFrom('films')
      .select(['id', 'duration_ms'])
      .orderBy('id')
      .execute();
    expect(films.map((f) => f.id)).toEqual(filmIds);
    for (const id of filmIds) {
      const film = loadFilm(id);
      const subtitles = await server.app.db
        .selectFrom('subtitles')
        .select(['idx', 'text', 'target_emotion', 'reference_audio_key'])
        .where('film_id', '=', id)
        .orderBy('idx')
        .execute();
      const cues = parseSubtitles(fs.readFileSync(path.join(filmsDir, id, film.subtitles), 'utf8'), 'srt');
      expect(
        subtitles.map((s) => s.text),
        id,
      ).toEqual(cues.map((c) => c.text));
      expect(
        subtitles.map((s) => s.target_emotion),
        id,
      ).toEqual(film.lines.map((l) => l.targetEmotion));
      for (const s of subtitles) {
        const pcm = readWav(await server.app.storage.get(s.reference_audio_key), `${id} line ${s.idx}`);
        const ms = (pcm.samples.length / pcm.sampleRate) * 1000;
        const where = `${id} line ${s.idx} reference`;
        expect(rmsDb(pcm.samples, pcm.sampleRate, 0, ms), where).toBeGreaterThan(MIN_SPEECH_DBFS);
        expect(peakFrameDb(pcm.samples, pcm.sampleRate, 0, EDGE_MS), `${where} onset`).toBeGreaterThan(
          MIN_EDGE_DBFS,
        );
        expect(peakFrameDb(pcm.samples, pcm.sampleRate, ms - EDGE_MS, ms), `${where} offset`).toBeGreaterThan(
          MIN_EDGE_DBFS,
        );
      }
    }
  }, 120_000);
});

const fixtureManifest = z.object({
  film: z.string(),
  speaker: z.string().regex(/^\d{2}$/),
  sampleRate: z.literal(RATE),
  takes: z
    .array(
      z.object({
        file: z.string().regex(/^\d{2}[ab]\d{2}[WLEAFTN][a-f]\.wav$/),
        speaker: z.string(),
        text: z.string(),
        german: z.string(),
        emotion,
        matchesLine: z.number().int().min(1),
        lineEmotion: emotion,
        relation: z.enum(['match', 'mismatch']),
        durationMs: z.number().int(),
        speechStartMs: z.number().int(),
        speechEndMs: z.number().int(),
      }),
    )
    .min(6)
    .max(12),
  micTake: z.object({
    file: z.string(),
    sampleRate: z.literal(RATE),
    durationMs: z.number().int(),
    lines: z.array(
      z.object({
        index: z.number().int(),
        take: z.string(),
        cueStartMs: z.number().int(),
        cueEndMs: z.number().int(),
        speechStartMs: z.number().int(),
        speechEndMs: z.number().int(),
      }),
    ),
  }),
});

describe('test fixtures', () => {
  const emodbDir = path.join(fixturesDir, 'emodb');
  const manifest = fixtureManifest.parse(
    JSON.parse(fs.readFileSync(path.join(emodbDir, 'fixtures.json'), 'utf8')),
  );
  const film = loadFilm(manifest.film);
  const cues = parseSubtitles(fs.readFileSync(path.join(filmsDir, film.id, film.subtitles), 'utf8'), 'srt');

  it('come from a speaker who is not in the film they dub', () => {
    const scene = SCENES.find((s) => s.id === film.id);
    expect(scene, 'scene definition of the fixture film').toBeDefined();
    expect(scene!.roles.map((r) => r.emodbSpeaker)).not.toContain(manifest.speaker);
    for (const t of manifest.takes) {
      expect(t.speaker).toBe(manifest.speaker);
      expect(t.file.slice(0, 2)).toBe(manifest.speaker);
    }
  });

  it('say the same sentence as the line they dub, in the matching or a mismatching emotion', () => {
    const relations = new Set(manifest.takes.map((t) => t.relation));
    expect(relations).toEqual(new Set(['match', 'mismatch']));
    for (const t of manifest.takes) {
      const line = film.lines[t.matchesLine - 1];
      expect(line, `${t.file} line`).toBeDefined();
      expect(t.german).toBe(cues[t.matchesLine - 1].text);
      expect(SENTENCES[t.text].german).toBe(t.german);
      expect(t.lineEmotion).toBe(line.targetEmotion);
      expect(t.emotion === line.targetEmotion, `${t.file} ${t.relation}`).toBe(t.relation === 'match');
    }
  });

  it('hold exactly the takes the manifest lists', () => {
    const onDisk = fs
      .readdirSync(emodbDir)
      .filter((f) => f.endsWith('.wav'))
      .sort();
    expect(onDisk).toEqual(manifest.takes.map((t) => t.file).sort());
  });

  it.each(manifest.takes.map((t) => t.file))(
    '%s is a trimmed 16 kHz mono 16-bit take with speech where the manifest says',
    (file) => {
      const take = manifest.takes.find((t) => t.file === file)!;
      const pcm = readWav(fs.readFileSync(path.join(emodbDir, file)), file);
      expect(pcm.sampleRate).toBe(RATE);
      const ms = (pcm.samples.length / RATE) * 1000;
      expect(Math.abs(ms - take.durationMs)).toBeLessThanOrEqual(1);
      expect(ms).toBeLessThan(2100);
      expect(rmsDb(pcm.samples, RATE, take.speechStartMs, take.speechEndMs)).toBeGreaterThan(MIN_SPEECH_DBFS);
    },
  );

  it("lays the learner's take on the film's timeline: speech inside each window's margin, silence between", () => {
    const file = path.resolve(emodbDir, manifest.micTake.file);
    const pcm = readWav(fs.readFileSync(file), file);
    expect(pcm.sampleRate).toBe(RATE);
    const filmAudioMs = (decodeAudio(path.join(filmsDir, film.id, film.video), RATE).length / RATE) * 1000;
    expect(Math.abs((pcm.samples.length / RATE) * 1000 - filmAudioMs)).toBeLessThan(100);
    expect(manifest.micTake.lines.map((l) => [l.cueStartMs, l.cueEndMs])).toEqual(
      cues.map((c) => [c.startMs, c.endMs]),
    );
    for (const l of manifest.micTake.lines) {
      expect(l.speechStartMs, `line ${l.index} starts inside the margin`).toBeGreaterThanOrEqual(
        l.cueStartMs - MARGIN_MS,
      );
      expect(l.speechEndMs, `line ${l.index} ends inside the margin`).toBeLessThanOrEqual(
        l.cueEndMs + MARGIN_MS,
      );
      const take = manifest.takes.find((t) => t.file === `${l.take}.wav`);
      expect(take?.relation, `line ${l.index} uses a matching take`).toBe('match');
    }
    const windows = manifest.micTake.lines.map((l) => ({ startMs: l.speechStartMs, endMs: l.speechEndMs }));
    expectSpeechOnlyInWindows(pcm.samples, windows, 'learner take');
  });

  it('stay small (under 1.5 MB in all)', () => {
    let bytes = 0;
    for (const sub of ['emodb', 'mic']) {
      for (const f of fs.readdirSync(path.join(fixturesDir, sub)))
        bytes += fs.statSync(path.join(fixturesDir, sub, f)).size;
    }
    expect(bytes).toBeLessThan(1.5 * 1024 * 1024);
  });
});
