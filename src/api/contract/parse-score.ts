import { SPEECH_SCORE_VERSIONS } from './constants';
import type { SpeechScore } from './speech';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A take's result from the JSON text it is kept as (a subTitlesScores entry's first/secondUserAudioJson,
 * docs/api.md): the page's one reader of a stored score, so every reader sees the same shape. Null when
 * the text is absent, not JSON, or not a result of a version this build reads. It checks the version
 * and the parts the page reads without zod, which stays out of the page's bundles; the server reads
 * its rows with the full `speechScore` schema (server/takes/attempts.ts).
 */
export function parseSpeechScore(text: string | null | undefined): SpeechScore | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !(SPEECH_SCORE_VERSIONS as readonly unknown[]).includes(value.version)) return null;
  if (typeof value.overall !== 'number' || typeof value.filmId !== 'string') return null;
  if (typeof value.audioUrl !== 'string') return null;
  if (!isObject(value.scores) || !isObject(value.emotion) || !isObject(value.contours)) return null;
  return value as SpeechScore;
}
