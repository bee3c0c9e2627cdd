import { clearCatalogue } from './catalogue-cache';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../lib/ids';
import type { MediaStorage } from '../storage/media-storage';
import { BACKGROUND_FILES, BACKGROUND_RATE, DUCK_DB, decodeMono, duckWindows, encodeM4a } from './background';
import { cutWav, probeMedia } from './ffmpeg';
import { type FilmManifest, filmManifest } from './manifest';
import { type Cue, checkCueTimes, parseSubtitles, SubtitleParseError, toWebVtt } from './subtitle-parse';

export class FilmImportError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'FilmImportError';
  }
}

export interface ImportDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export interface ImportedFilm {
  id: string;
  title: string;
  lines: number;
  questions: number;
  durationMs: number;
  /** Where the voice-free background came from: the folder's own file, or ducking the original. */
  background: { source: 'supplied'; file: string } | { source: 'derived'; duckDb: number; windows: number };
}

/** Longest difference between a supplied background and the video before the import refuses it. */
const BACKGROUND_LENGTH_TOLERANCE_MS = 500;

/** One line for the import's output that says how the film got its background track. */
export function describeBackground(b: ImportedFilm['background']): string {
  return b.source === 'supplied'
    ? `background: ${b.file}`
    : `background: derived from the original audio, ducked ${b.duckDb} dB inside ${b.windows} subtitle windows (no ${BACKGROUND_FILES.join(' or ')} in the folder)`;
}

/** 1-based line and column of a character offset, for JSON error messages. */
function lineOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/**
 * Offset of the first syntax error in JSON text. Node's messages do not always carry a position, so
 * binary-search the longest prefix that is still a valid beginning ("unexpected end" rather than
 * "unexpected token").
 */
function jsonErrorOffset(text: string): number {
  const incomplete = (k: number) => {
    try {
      JSON.parse(text.slice(0, k));
      return true;
    } catch (e) {
      const msg = String(e);
      const pos = /position (\d+)/.exec(msg);
      // A prefix that fails only because it ends early is still a valid beginning.
      return /end of JSON input|Unterminated/i.test(msg) || (pos !== null && Number(pos[1]) >= k);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (incomplete(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

async function readManifest(folder: string): Promise<FilmManifest> {
  const file = path.join(folder, 'film.json');
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    throw new FilmImportError(file, 'missing (every film folder needs a film.json)');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const at = lineOf(text, jsonErrorOffset(text));
    const where = `line ${at.line}, column ${at.column}`;
    throw new FilmImportError(file, `invalid JSON at ${where}: ${msg}`);
  }
  const parsed = filmManifest.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`,
    );
    throw new FilmImportError(file, `does not match the film.json schema:\n  - ${issues.join('\n  - ')}`);
  }
  return parsed.data;
}

async function requireFile(folder: string, rel: string, what: string): Promise<string> {
  const full = path.join(folder, rel);
  const stat = await fsp.stat(full).catch(() => null);
  if (!stat?.isFile()) throw new FilmImportError(full, `missing ${what} (named in film.json)`);
  if (stat.size === 0) throw new FilmImportError(full, `${what} is empty`);
  return full;
}

/** Runs tasks with at most `limit` at once (ffmpeg is CPU-bound; the machine is shared). */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k]);
    }
  });
  await Promise.all(workers);
  return out;
}

/** Validates a film folder completely before anything is written. */
async function validateFolder(folder: string) {
  const manifest = await readManifest(folder);
  const video = await requireFile(folder, manifest.video, 'video');
  const poster = await requireFile(folder, manifest.poster, 'poster');
  const subsFile = await requireFile(folder, manifest.subtitles, 'subtitle file');

  let probe: Awaited<ReturnType<typeof probeMedia>>;
  try {
    probe = await probeMedia(video);
  } catch (err) {
    throw new FilmImportError(video, err instanceof Error ? err.message : String(err));
  }
  if (!probe.hasVideo) throw new FilmImportError(video, 'has no video stream');
  if (!probe.hasAudio)
    throw new FilmImportError(video, 'has no audio stream (reference lines are cut from it)');

  let cues: Cue[];
  try {
    const format = manifest.subtitles.toLowerCase().endsWith('.vtt') ? 'vtt' : 'srt';
    cues = parseSubtitles(await fsp.readFile(subsFile, 'utf8'), format);
  } catch (err) {
    if (err instanceof SubtitleParseError) throw new FilmImportError(subsFile, err.message);
    throw err;
  }
  const background = await findBackground(folder, manifest, probe.durationMs);
  const timing = checkCueTimes(cues, probe.durationMs);
  if (timing) throw new FilmImportError(subsFile, timing.message);
  if (cues.length !== manifest.lines.length) {
    throw new FilmImportError(
      path.join(folder, 'film.json'),
      `lines has ${manifest.lines.length} entries but ${manifest.subtitles} has ${cues.length} cues; they must match one to one`,
    );
  }
  return { manifest, video, poster, cues, background, durationMs: probe.durationMs };
}

/** The folder's background file (named in film.json, else by convention), checked; null if none. */
async function findBackground(
  folder: string,
  manifest: FilmManifest,
  videoMs: number,
): Promise<string | null> {
  let file: string | null = null;
  if (manifest.background) file = await requireFile(folder, manifest.background, 'background track');
  else {
    for (const name of BACKGROUND_FILES) {
      const full = path.join(folder, name);
      if ((await fsp.stat(full).catch(() => null))?.isFile()) {
        file = await requireFile(folder, name, 'background track');
        break;
      }
    }
  }
  if (!file) return null;
  let probe: Awaited<ReturnType<typeof probeMedia>>;
  try {
    probe = await probeMedia(file);
  } catch (err) {
    throw new FilmImportError(file, err instanceof Error ? err.message : String(err));
  }
  if (!probe.hasAudio) throw new FilmImportError(file, 'background track has no audio stream');
  if (Math.abs(probe.durationMs - videoMs) > BACKGROUND_LENGTH_TOLERANCE_MS) {
    throw new FilmImportError(
      file,
      `background track lasts ${(probe.durationMs / 1000).toFixed(2)} s but the video ${(videoMs / 1000).toFixed(2)} s; they must match within ${BACKGROUND_LENGTH_TOLERANCE_MS} ms`,
    );
  }
  return file;
}

/**
 * Imports one film folder: validate everything, copy media into storage under a fresh version
 * prefix, cut each line's reference audio, then replace the film's rows in one transaction.
 * Re-importing the same id replaces the film (learners' records and takes are kept).
 */
export async function importFilmFolder(deps: ImportDeps, folderArg: string): Promise<ImportedFilm> {
  const folder = path.resolve(folderArg);
  if (!fs.existsSync(folder)) throw new FilmImportError(folder, 'folder not found');
  const { manifest, video, poster, cues, background, durationMs } = await validateFolder(folder);
  const id = manifest.id;

  // A new prefix per import: media URLs change with the content, so clients may cache them for long.
  const version = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const prefix = `films/${id}/${version}`;
  const ext = (f: string) =>
    path
      .extname(f)
      .toLowerCase()
      .replace(/[^.a-z0-9]/g, '') || '.bin';
  const videoKey = `${prefix}/video${ext(video)}`;
  const posterKey = `${prefix}/poster${ext(poster)}`;
  const trackKey = `${prefix}/track.vtt`;
  const backgroundKey = `${prefix}/background.m4a`;

  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), `film-${id}-`));
  try {
    const refKeys = await mapLimit(cues, 2, async (cue) => {
      const out = path.join(tmp, `line-${cue.index}.wav`);
      try {
        await cutWav(video, cue.startMs, cue.endMs, out);
      } catch (err) {
        throw new FilmImportError(video, `line ${cue.index}: ${err instanceof Error ? err.message : err}`);
      }
      const key = `${prefix}/lines/${cue.index}.wav`;
      await deps.storage.put(key, await fsp.readFile(out));
      return key;
    });
    await deps.storage.put(videoKey, fs.createReadStream(video));
    await deps.storage.put(posterKey, fs.createReadStream(poster));
    await deps.storage.put(trackKey, Buffer.from(toWebVtt(cues), 'utf8'));
    const backgroundInfo = await storeBackground(deps, { video, background, cues, tmp, key: backgroundKey });

    const previous = await deps.db
      .selectFrom('films')
      .select(['video_key', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    await replaceFilmRows(deps.db, {
      manifest,
      cues,
      refKeys,
      keys: { video: videoKey, poster: posterKey, track: trackKey, background: backgroundKey },
      durationMs,
      createdAt: previous?.created_at ?? null,
    });
    clearCatalogue(deps.db);
    // Old media goes only after the new rows are committed.
    const oldPrefix = previous?.video_key.split('/').slice(0, 3).join('/');
    if (oldPrefix && oldPrefix !== prefix) await deps.storage.deletePrefix(oldPrefix).catch(() => undefined);
    deps.log?.info(
      `film ${id}: ${cues.length} lines, ${manifest.questions.length} questions, ${durationMs} ms, ${describeBackground(backgroundInfo)}`,
    );
    return {
      id,
      title: manifest.title,
      lines: cues.length,
      questions: manifest.questions.length,
      durationMs,
      background: backgroundInfo,
    };
  } catch (err) {
    // Nothing of a failed import stays behind: the new prefix holds only this attempt's files.
    await deps.storage.deletePrefix(prefix).catch(() => undefined);
    throw err;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** A stored film's media keys, under its version prefix. */
interface FilmKeys {
  video: string;
  poster: string;
  track: string;
  background: string;
}

/**
 * Replaces a film's rows (the film, its lines, its questions) in one transaction, and drops the
 * actor's line analyses of the old audio. `createdAt` keeps a re-imported film's first import time.
 */
async function replaceFilmRows(db: Kysely<Database>, film: FilmRows): Promise<void> {
  const { manifest, cues } = film;
  const id = manifest.id;
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('subtitles').where('film_id', '=', id).execute();
    await trx.deleteFrom('questions').where('film_id', '=', id).execute();
    await trx.deleteFrom('films').where('id', '=', id).execute();
    await trx.insertInto('films').values(filmRow(film, now)).execute();
    await trx.insertInto('subtitles').values(subtitleRows(film)).execute();
    if (manifest.questions.length > 0) {
      await trx.insertInto('questions').values(questionRows(manifest)).execute();
    }
    // The actor's line analysis and word check belong to the old audio: let the AI service redo them.
    const lineIds = cues.map((c) => `${id}-${c.index}`);
    await trx.deleteFrom('reference_analyses').where('subtitle_id', 'in', lineIds).execute();
    await trx.deleteFrom('reference_words').where('subtitle_id', 'in', lineIds).execute();
  });
}

/** What a film's rows are made of. */
interface FilmRows {
  manifest: FilmManifest;
  cues: readonly Cue[];
  refKeys: readonly string[];
  keys: FilmKeys;
  durationMs: number;
  createdAt: string | null;
}

function filmRow(film: FilmRows, now: string) {
  const { manifest } = film;
  return {
    id: manifest.id,
    title: manifest.title,
    title_en: manifest.titleEn,
    synopsis: JSON.stringify(manifest.synopsis),
    parts: JSON.stringify(manifest.parts),
    roles: JSON.stringify(manifest.roles),
    poster_key: film.keys.poster,
    video_key: film.keys.video,
    track_key: film.keys.track,
    background_key: film.keys.background,
    language: manifest.language,
    duration_ms: film.durationMs,
    created_at: film.createdAt ?? now,
    updated_at: now,
  };
}

/** One row per cue, with the manifest's line of the same position and its reference audio. */
function subtitleRows({ manifest, cues, refKeys }: FilmRows) {
  const id = manifest.id;
  return cues.map((cue, k) => {
    const line = manifest.lines[k];
    return {
      id: `${id}-${cue.index}`,
      film_id: id,
      idx: cue.index,
      start_ms: cue.startMs,
      end_ms: cue.endMs,
      text: cue.text,
      translation: JSON.stringify(line.translation),
      speaker: line.speaker,
      target_emotion: line.targetEmotion,
      reference_audio_key: refKeys[k],
    };
  });
}

function questionRows(manifest: FilmManifest) {
  const id = manifest.id;
  return manifest.questions.map((q, k) => ({
    id: `${id}-${q.id}`,
    film_id: id,
    idx: k + 1,
    kind: q.kind,
    prompt: JSON.stringify(q.prompt),
    options: JSON.stringify(q.options),
    answer: JSON.stringify(q.answer),
    explanation: JSON.stringify(q.explanation),
    required: q.required ? 1 : 0,
    points: q.points,
  }));
}

/**
 * Stores the film's background as AAC (.m4a): a supplied .m4a as it is, a supplied .wav encoded, or
 * the original audio ducked inside every subtitle window (server/films/background.ts).
 */
async function storeBackground(
  deps: ImportDeps,
  input: { video: string; background: string | null; cues: Cue[]; tmp: string; key: string },
): Promise<ImportedFilm['background']> {
  const { video, background, cues, tmp, key } = input;
  if (background?.toLowerCase().endsWith('.m4a')) {
    await deps.storage.put(key, fs.createReadStream(background));
    return { source: 'supplied', file: path.basename(background) };
  }
  const out = path.join(tmp, 'background.m4a');
  const source = background ?? video;
  try {
    const samples = await decodeMono(source, BACKGROUND_RATE);
    if (!background) duckWindows(samples, BACKGROUND_RATE, cues, { depthDb: DUCK_DB });
    await encodeM4a(samples, BACKGROUND_RATE, out);
  } catch (err) {
    throw new FilmImportError(source, `background track: ${err instanceof Error ? err.message : err}`);
  }
  await deps.storage.put(key, await fsp.readFile(out));
  return background
    ? { source: 'supplied', file: path.basename(background) }
    : { source: 'derived', duckDb: DUCK_DB, windows: cues.length };
}
