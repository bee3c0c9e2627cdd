/**
 * The actor's pitch contour per line for the dub page's pitch guide (docs/architecture.md, "Pitch
 * guide"), read from the cached reference analysis (server/ai/reference.ts): semitones re the actor's
 * median on the line, every 20 ms. Lines not analysed yet are analysed in the worker pool first
 * (actorReadings caches them), so no analysis runs on the request event loop.
 */
import type { Subtitle } from '../../src/api/contract';
import { semitoneContour } from '../../src/audio/scoring/contour';
import { actorReadings, cachedReferenceAnalyses, type ReadingDeps, usableRecord } from '../ai/reference';
import type { FilmsTable, SubtitlesTable } from '../db/schema';
import { cached } from './catalogue-cache';
import { filmLinesCached } from './queries';

type ActorPitch = NonNullable<Subtitle['actorPitch']>;

/** Frames of the analysis (10 ms) per contour point. */
const DECIMATE = 2;

/** Semitones re the median voiced f0, averaged over DECIMATE frames, rounded to 0.1; null unvoiced. */
export function contourOf(f0Hz: readonly number[], hopSeconds: number): ActorPitch {
  const st = semitoneContour(f0Hz, 0, f0Hz.length);
  const semitones: (number | null)[] = [];
  for (let i = 0; i < st.length; i += DECIMATE) {
    let sum = 0;
    let n = 0;
    for (let k = i; k < Math.min(st.length, i + DECIMATE); k++) {
      if (Number.isFinite(st[k])) {
        sum += st[k];
        n++;
      }
    }
    semitones.push(n ? Math.round((sum / n) * 10) / 10 : null);
  }
  return { hopSeconds: hopSeconds * DECIMATE, semitones };
}

/** Contours of the lines whose cached analysis fits their audio. */
async function cachedContours(
  deps: Pick<ReadingDeps, 'db'>,
  lines: readonly SubtitlesTable[],
): Promise<Map<string, ActorPitch>> {
  const cached = await cachedReferenceAnalyses(
    deps.db,
    lines.map((l) => l.id),
  );
  const out = new Map<string, ActorPitch>();
  for (const l of lines) {
    const text = cached.get(l.id);
    const record = text ? usableRecord(text, l.reference_audio_key) : null;
    if (record) out.set(l.id, contourOf(record.analysis.frames.f0Hz, record.analysis.frames.hopSeconds));
  }
  return out;
}

/** Every line's contour; lines never analysed are analysed (and cached) in the pool first. */
export async function actorPitchContours(
  deps: ReadingDeps,
  lines: readonly SubtitlesTable[],
): Promise<Map<string, ActorPitch>> {
  const have = await cachedContours(deps, lines);
  const missing = lines.filter((l) => !have.has(l.id) && l.reference_audio_key);
  if (missing.length === 0) return have;
  await actorReadings(deps, missing).catch((err) => deps.log.warn({ err }, 'actor lines not analysed'));
  return cachedContours(deps, lines);
}

/**
 * A film's contours through the catalogue cache (server/films/catalogue-cache.ts, 5 s): reading and
 * parsing every line's cached analysis cost a part-two film detail 12 statements and most of its CPU.
 * A line whose analysis is still missing (or failed) is tried again when the entry expires.
 */
export async function filmActorPitch(deps: ReadingDeps, film: FilmsTable): Promise<Map<string, ActorPitch>> {
  const lines = await filmLinesCached(deps.db, film);
  return cached(deps.db, `pitch:${film.id}:${film.updated_at}`, () => actorPitchContours(deps, lines));
}
