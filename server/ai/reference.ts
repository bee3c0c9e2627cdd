import type { Kysely } from 'kysely';
import {
  ACTOR_VOICE_LINES,
  hasCurrentFeatures,
  type ReferenceRecord,
} from '../../src/audio/scoring/reference-record';
import type { Database, SubtitlesTable } from '../db/schema';
import { parseJson } from '../lib/json';
import { nowIso } from '../lib/ids';
import type { MediaStorage } from '../storage/media-storage';
import type { ScoringPool } from './pool';
import type { ActorReading, ReferenceJob, ScoreJob } from './score-task';

/** A cached analysis when it is readable and was computed from this audio, else null. */
export function usableRecord(text: string, referenceKey: string): ReferenceRecord | null {
  const record = parseJson<ReferenceRecord | null>(text, null);
  // Film media keys are versioned per import: a different key means different audio; a record from
  // an older feature set is analysed again.
  return record?.version === 1 && record.audioKey === referenceKey && hasCurrentFeatures(record)
    ? record
    : null;
}

/**
 * The actor's line for a subtitle: the cached analysis when there is one, else the reference wav
 * (the worker analyses it and the result is cached), else null when the line has no usable audio.
 */
export async function loadReference(
  db: Kysely<Database>,
  storage: MediaStorage,
  subtitleId: string,
  referenceKey: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<ScoreJob['reference']> {
  const cached = await db
    .selectFrom('reference_analyses')
    .select('analysis')
    .where('subtitle_id', '=', subtitleId)
    .executeTakeFirst();
  const record = cached ? usableRecord(cached.analysis, referenceKey) : null;
  if (record) return { record };
  if (cached) log.warn({ subtitleId }, 'stale or unreadable cached reference analysis; analysing again');
  if (!referenceKey) return null;
  try {
    return { wav: new Uint8Array(await storage.get(referenceKey)) };
  } catch (err) {
    // A missing reference must not block the learner: the take is scored on its own.
    log.warn({ err, subtitleId, referenceKey }, 'reference audio missing; scoring without the actor');
    return null;
  }
}

/** Caches a freshly analysed reference, replacing one computed from older audio of the line. */
export async function cacheReference(
  db: Kysely<Database>,
  subtitleId: string,
  audioKey: string,
  record: ReferenceRecord,
): Promise<void> {
  const values = { analysis: JSON.stringify({ ...record, audioKey }), created_at: nowIso() };
  await db
    .insertInto('reference_analyses')
    .values({ subtitle_id: subtitleId, ...values })
    .onConflict((oc) => oc.column('subtitle_id').doUpdateSet(values))
    .execute();
}

/** The cached analyses (JSON text) of some lines, by subtitle id. */
export async function cachedReferenceAnalyses(
  db: Kysely<Database>,
  subtitleIds: string[],
): Promise<Map<string, string>> {
  if (subtitleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reference_analyses')
    .select(['subtitle_id', 'analysis'])
    .where('subtitle_id', 'in', subtitleIds)
    .execute();
  return new Map(rows.map((r) => [r.subtitle_id, r.analysis]));
}

/**
 * Readings already made, per database and by line and reference audio key: a reading depends only on
 * the audio (keys are versioned per import) and the model this process loaded, so report views after
 * the first need no pool job.
 */
const readingsByDb = new WeakMap<object, Map<string, ActorReading>>();
const MAX_READINGS = 5_000;
const readingKey = (line: Pick<SubtitlesTable, 'id' | 'reference_audio_key'>) =>
  `${line.id}\u0000${line.reference_audio_key}`;
function remember(readings: Map<string, ActorReading>, key: string, reading: ActorReading): void {
  if (readings.size >= MAX_READINGS) readings.delete(readings.keys().next().value!);
  readings.set(key, reading);
}

export interface ReadingDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
  scoring: ScoringPool;
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * The original actor's emotion and figures per line, for a take's score and for the report alike:
 * read in the worker pool against the actor's voice (the role's first ACTOR_VOICE_LINES lines in the
 * film, readActorLines), from each line's cached analysis, or analysed there from the line's reference
 * audio and cached for next time. Lines without usable audio, or a pool too busy to answer, get no
 * reading (the report still shows; a take's score reads its line cold).
 */
export async function actorReadings(
  deps: ReadingDeps,
  allLines: Array<Pick<SubtitlesTable, 'id' | 'reference_audio_key' | 'film_id' | 'speaker'>>,
): Promise<Map<string, ActorReading>> {
  const out = new Map<string, ActorReading>();
  const readings = readingsByDb.get(deps.db) ?? new Map<string, ActorReading>();
  readingsByDb.set(deps.db, readings);
  for (const line of allLines) {
    const known = readings.get(readingKey(line));
    if (known) out.set(line.id, known);
  }
  const lines = allLines.filter((l) => !out.has(l.id) && l.reference_audio_key);
  if (lines.length === 0) return out;
  const asked = new Set(lines.map((l) => l.id));
  const voiceOf = (l: Pick<SubtitlesTable, 'film_id' | 'speaker'>) => `${l.film_id}\u0000${l.speaker}`;
  const members = new Map<string, { id: string; reference_audio_key: string; voice: string }>();
  for (const voice of new Set(lines.map(voiceOf))) {
    const { film_id, speaker } = lines.find((l) => voiceOf(l) === voice)!;
    const rows = await deps.db
      .selectFrom('subtitles')
      .select(['id', 'reference_audio_key'])
      .where('film_id', '=', film_id)
      .where('speaker', '=', speaker)
      .where('reference_audio_key', '!=', '')
      .orderBy('idx')
      .limit(ACTOR_VOICE_LINES)
      .execute();
    for (const r of rows) members.set(r.id, { ...r, voice });
  }
  const wanted = new Map<string, { id: string; reference_audio_key: string; voice: string }>(members);
  for (const l of lines)
    wanted.set(l.id, { id: l.id, reference_audio_key: l.reference_audio_key, voice: voiceOf(l) });
  const cached = await cachedReferenceAnalyses(deps.db, [...wanted.keys()]);
  const job: ReferenceJob = { lines: [] };
  for (const line of wanted.values()) {
    const text = cached.get(line.id);
    const record = text ? usableRecord(text, line.reference_audio_key) : null;
    const part = {
      subtitleId: line.id,
      voice: line.voice,
      inVoice: members.has(line.id),
    };
    if (record) job.lines.push({ ...part, record });
    else {
      const wav = await deps.storage.get(line.reference_audio_key).catch(() => null);
      if (wav) job.lines.push({ ...part, wav: new Uint8Array(wav) });
    }
  }
  if (job.lines.length === 0) return out;
  try {
    const result = await deps.scoring.readReferences(job);
    for (const r of result.lines) {
      const key = wanted.get(r.subtitleId)!.reference_audio_key;
      if (r.actor) {
        // The voice's lines are read too (a classification each, their analyses are loaded anyway):
        // remembered, they spare the next take on another line of the role the same loading.
        if (asked.has(r.subtitleId)) out.set(r.subtitleId, r.actor);
        remember(readings, `${r.subtitleId}\u0000${key}`, r.actor);
      }
      if (r.analysed) await cacheReference(deps.db, r.subtitleId, key, r.analysed);
    }
  } catch (err) {
    deps.log.warn(
      { err },
      'actor readings unavailable; reports show the learner alone, takes read the actor cold',
    );
  }
  return out;
}
