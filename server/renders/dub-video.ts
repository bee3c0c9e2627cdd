/**
 * A run's dubbed video: its state (dub_renders) and the job that renders it (docs/architecture.md,
 * "The dubbed video"). Rendered once per run and again only when what it is made of changes: the
 * film's media or any line's latest take (the signature). Asking for the state of a run whose render
 * is missing or stale queues one (app.renders, bounded); the answer is "rendering" until it is done.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DubVideo } from '../../src/api/contract';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../src/audio/constants';
import { readWavHeader } from '../../src/audio/dsp/wav';
import type { Lang } from '../../src/i18n';
import type { Database, FilmsTable, RunsTable, SubtitlesTable, TakesTable } from '../db/schema';
import { filmLines } from '../films/queries';
import { nowIso } from '../lib/ids';
import { said, say } from '../lib/words';
import type { MediaStorage } from '../storage/media-storage';
import { runAttempts, runMediaPrefix } from '../takes/repository';
import { countRender, pruneRenders } from '../takes/retention';
import { type RenderSpan, renderDubVideo } from './dub-render';
import type { RenderQueue } from './render-queue';

export interface DubVideoDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
  renders: RenderQueue;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The language of a failed render's message (the request's; Chinese when not told). */
  lang?: Lang;
}

/** What a render job needs (app.renders runs it, server/plugins/renders.ts). */
export interface RenderRunDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
  /** The learner's most recent renders kept (server/takes/retention.ts pruneRenders). */
  rendersKept: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

const MARGIN_MS = DEFAULT_WINDOW_MARGIN_SECONDS * 1000;

interface Material {
  film: FilmsTable;
  lines: SubtitlesTable[];
  /** Each dubbed line's latest take. */
  latest: Map<string, TakesTable>;
  signature: string;
}

async function material(db: Kysely<Database>, run: RunsTable): Promise<Material | null> {
  const film = await db.selectFrom('films').selectAll().where('id', '=', run.film_id).executeTakeFirst();
  if (!film) return null;
  const [lines, attempts] = await Promise.all([filmLines(db, run.film_id), runAttempts(db, run.id)]);
  const latest = new Map<string, TakesTable>();
  for (const l of lines) {
    const a = attempts.get(l.id);
    const take = a ? (a.second ?? a.first) : null;
    if (take) latest.set(l.id, take.row);
  }
  const signature = crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        film.video_key,
        film.background_key,
        lines.map((l) => [l.id, l.start_ms, l.end_ms, latest.get(l.id)?.id ?? null]),
      ]),
    )
    .digest('hex');
  return { film, lines, latest, signature };
}

const NONE: DubVideo = { status: 'none', url: null, message: null };
const RENDERING: DubVideo = { status: 'rendering', url: null, message: null };

/**
 * The run's dubbed video, queueing a render when there is none for its current takes (429 when the
 * learner's or the service's waiting list is full, or the learner's daily storage is used up).
 */
export async function dubVideoOf(deps: DubVideoDeps, run: RunsTable): Promise<DubVideo> {
  const m = await material(deps.db, run);
  if (!m || m.latest.size === 0) return NONE;
  const row = await deps.db
    .selectFrom('dub_renders')
    .selectAll()
    .where('run_id', '=', run.id)
    .executeTakeFirst();
  if (row && row.signature === m.signature) {
    if (row.status === 'ready' && row.media_key) {
      return { status: 'ready', url: deps.storage.url(row.media_key), message: null };
    }
    if (row.status === 'failed') {
      // The row keeps the failure's technical detail; the sentence around it is the learner's.
      const message = say(said('render.failed', { detail: row.error ?? '' }), deps.lang ?? 'zh');
      return { status: 'failed', url: null, message };
    }
    if (row.status === 'queued' || row.status === 'rendering') {
      deps.renders.kick();
      return RENDERING;
    }
  }
  await deps.renders.request(run, m.signature);
  return RENDERING;
}

/** The rendered file of a ready render, for the share page; null otherwise. */
export async function readyDubVideoKey(db: Kysely<Database>, runId: string): Promise<string | null> {
  const row = await db.selectFrom('dub_renders').selectAll().where('run_id', '=', runId).executeTakeFirst();
  return row?.status === 'ready' ? row.media_key : null;
}

/**
 * A take's length from its wav header; the window's when the header cannot be read (ffmpeg then
 * says what is wrong with the file).
 */
function takeLengthMs(bytes: Uint8Array, line: SubtitlesTable): number {
  try {
    const h = readWavHeader(bytes);
    return (h.frames / h.sampleRate) * 1000;
  } catch {
    return line.end_ms - line.start_ms + 2 * MARGIN_MS;
  }
}

const spanOf = (l: SubtitlesTable): RenderSpan => ({
  fromMs: Math.max(0, l.start_ms - MARGIN_MS),
  toMs: l.end_ms + MARGIN_MS,
});

/**
 * Renders what the run holds now (claimed by app.renders). The row is made ready only if its
 * signature is still the one rendered, so a take stored meanwhile wins and is rendered next. The
 * render's bytes count in the learner's daily storage, and their older renders beyond the kept
 * number are deleted.
 */
export async function renderRun(deps: RenderRunDeps, runId: string, signal: AbortSignal): Promise<void> {
  const claim = await currentClaim(deps.db, runId);
  if (!claim) return;
  const { run, m, previousKey } = claim;
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dub-render-'));
  const key = `${runMediaPrefix(run.user_id, run.id)}dub-${m.signature.slice(0, 16)}.mp4`;
  try {
    const { video, background, takes } = await fetchInputs(deps.storage, m, tmp);
    const out = path.join(tmp, 'dub.mp4');
    await renderDubVideo({
      video,
      background,
      durationMs: m.film.duration_ms,
      actor: m.lines.filter((l) => !m.latest.has(l.id)).map(spanOf),
      dubbed: m.lines.filter((l) => m.latest.has(l.id)).map(spanOf),
      takes,
      out,
      signal,
    });
    const mp4 = await fsp.readFile(out);
    if (!(await storeRender(deps, run, m.signature, { key, previousKey, mp4 }))) return;
    deps.log?.info(`dubbed video of run ${run.id}: ${takes.length} takes rendered`);
  } catch (err) {
    // Stopped by a shutdown: app.renders puts the row back in the queue.
    if (signal.aborted) return;
    const why = err instanceof Error ? err.message : String(err);
    deps.log?.error({ err: why }, `dubbed video of run ${run.id} failed`);
    await deps.db
      .updateTable('dub_renders')
      .set({
        status: 'failed',
        error: why,
        updated_at: nowIso(),
      })
      .where('run_id', '=', run.id)
      .where('signature', '=', m.signature)
      .execute();
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The run, what it holds now and its render row's previous media, while the row is claimed; null
 * when the row is no longer claimed, or when nothing is left to render (film or takes gone: then no
 * row stays claimed). A take stored since the request changes the claim's signature: the claim
 * renders what is there now.
 */
async function currentClaim(
  db: Kysely<Database>,
  runId: string,
): Promise<{ run: RunsTable; m: Material; previousKey: string | null } | null> {
  const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  const m = run ? await material(db, run) : null;
  if (!run || !m || m.latest.size === 0) {
    await db
      .deleteFrom('dub_renders')
      .where('run_id', '=', runId)
      .where('status', '=', 'rendering')
      .execute();
    return null;
  }
  const row = await db.selectFrom('dub_renders').selectAll().where('run_id', '=', run.id).executeTakeFirst();
  if (row?.status !== 'rendering') return null;
  if (row.signature !== m.signature) {
    await db
      .updateTable('dub_renders')
      .set({ signature: m.signature })
      .where('run_id', '=', run.id)
      .where('status', '=', 'rendering')
      .execute();
  }
  return { run, m, previousKey: row.media_key };
}

/** The film's video and background and each dubbed line's latest take, copied into `dir`. */
async function fetchInputs(storage: MediaStorage, m: Material, dir: string) {
  const fetchTo = async (k: string, name: string) => {
    const file = path.join(dir, name);
    const bytes = await storage.get(k);
    await fsp.writeFile(file, bytes);
    return { file, bytes };
  };
  const { file: video } = await fetchTo(m.film.video_key, `video${path.extname(m.film.video_key)}`);
  const background = m.film.background_key
    ? (await fetchTo(m.film.background_key, 'background.m4a')).file
    : null;
  const takes = [];
  for (const l of m.lines) {
    const take = m.latest.get(l.id);
    if (!take) continue;
    const { file, bytes } = await fetchTo(take.audio_key, `take-${l.idx}.wav`);
    takes.push({ file, clipStartMs: l.start_ms - MARGIN_MS, durationMs: takeLengthMs(bytes, l) });
  }
  return { video, background, takes };
}

/**
 * Stores the render and marks the row ready, only if its signature is still the one rendered (else
 * false: a newer take won, the bytes are deleted). The previous render is deleted, the bytes count
 * in the learner's daily storage and their older renders beyond the kept number are deleted.
 */
async function storeRender(
  deps: RenderRunDeps,
  run: RunsTable,
  signature: string,
  render: { key: string; previousKey: string | null; mp4: Buffer },
): Promise<boolean> {
  const { db, storage } = deps;
  const { key, previousKey, mp4 } = render;
  await storage.put(key, mp4);
  const done = await db
    .updateTable('dub_renders')
    .set({ status: 'ready', media_key: key, error: null, updated_at: nowIso() })
    .where('run_id', '=', run.id)
    .where('signature', '=', signature)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) {
    await storage.delete(key).catch(() => undefined);
    return false;
  }
  if (previousKey && previousKey !== key) await storage.delete(previousKey).catch(() => undefined);
  await countRender(db, run.user_id, mp4.length);
  await pruneRenders(db, storage, run.user_id, deps.rendersKept);
  return true;
}
