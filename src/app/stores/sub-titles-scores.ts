import { signal } from '@preact/signals-react';
import { prefixImage } from '../../api/image';
import { readJson } from './storage';

/**
 * subTitlesScores (spec §3–§4): one entry per subtitle id. The first recording fills the `first*`
 * fields, a repeat fills `second*`; a third take replaces the second (only two attempts are kept).
 */
export interface SubtitleScore {
  subtitlesId: string;
  /** JSON text of the score result (contract `speechScore`). */
  firstUserAudioJson: string;
  /** A local audio URL (object URL of the take). */
  firstSource: string;
  secondUserAudioJson?: string;
  secondSource?: string;
  /**
   * Set when restored after a reload: the `blob:` URL died with the old page. Play the server copy
   * (`audioUrl` in the JSON) instead, see `playableSource`.
   */
  firstSourceLost?: boolean;
  secondSourceLost?: boolean;
}

export type SubTitlesScores = Record<string, SubtitleScore>;

export const SCORES_KEY = 'prpt.subTitlesScores';

const isBlobUrl = (s: string | undefined) => !!s && s.startsWith('blob:');

function revoke(url: string | undefined): void {
  if (isBlobUrl(url)) URL.revokeObjectURL(url as string);
}

/** Object URLs do not survive a reload: keep the JSON, drop the dead `blob:` source and mark it. */
export function restoreScores(stored: SubTitlesScores | null): SubTitlesScores {
  const out: SubTitlesScores = {};
  for (const [id, entry] of Object.entries(stored ?? {})) {
    if (!entry || typeof entry.firstUserAudioJson !== 'string') continue;
    const next: SubtitleScore = { ...entry };
    if (isBlobUrl(next.firstSource)) {
      next.firstSource = '';
      next.firstSourceLost = true;
    }
    if (isBlobUrl(next.secondSource)) {
      next.secondSource = '';
      next.secondSourceLost = true;
    }
    out[id] = next;
  }
  return out;
}

export const subTitlesScores = signal<SubTitlesScores>(
  restoreScores(readJson<SubTitlesScores>(sessionStorage, SCORES_KEY)),
);

/**
 * Each entry's JSON text as last written, in insertion order. The stored value stays one JSON object
 * under SCORES_KEY (the format every reader and older page knows), but it is assembled from these
 * texts: a new score serialises its own entry only, instead of re-serialising every score of the film
 * (each carries its take's contours) — over a long scene take that grew into a long task per score.
 */
const serialized = new Map<string, string>(
  Object.entries(subTitlesScores.peek()).map(([id, entry]) => [id, JSON.stringify(entry)]),
);

/** The stored text of the whole map, built from the per-entry texts (same JSON as stringifying it). */
export function storedScoresText(): string {
  const parts: string[] = [];
  for (const [id, json] of serialized) parts.push(`${JSON.stringify(id)}:${json}`);
  return `{${parts.join(',')}}`;
}

function persist(): void {
  try {
    sessionStorage.setItem(SCORES_KEY, storedScoresText());
  } catch (e) {
    console.error(`[storage] cannot write ${SCORES_KEY}`, e);
  }
}

/** Sets one line's entry in the signal and in sessionStorage, at once (a reload keeps it). */
function saveEntry(subtitlesId: string, entry: SubtitleScore): void {
  subTitlesScores.value = { ...subTitlesScores.peek(), [subtitlesId]: entry };
  serialized.set(subtitlesId, JSON.stringify(entry));
  persist();
}

/**
 * Records one scored take for a line and returns which attempt it became (1 or 2).
 * Persisted to sessionStorage at once, so a reload keeps it; only this entry is serialised anew.
 */
export function recordAttempt(subtitlesId: string, resultJson: string, source: string): 1 | 2 {
  const current = subTitlesScores.peek();
  const entry = current[subtitlesId];
  if (!entry) {
    saveEntry(subtitlesId, { subtitlesId, firstUserAudioJson: resultJson, firstSource: source });
    return 1;
  }
  if (entry.secondSource !== source) revoke(entry.secondSource);
  saveEntry(subtitlesId, {
    ...entry,
    secondUserAudioJson: resultJson,
    secondSource: source,
    secondSourceLost: false,
  });
  return 2;
}

/** Which attempt the next recording of this line will be. */
export function nextAttempt(subtitlesId: string): 1 | 2 {
  return subTitlesScores.peek()[subtitlesId] ? 2 : 1;
}

/** Empties the scores on request (spec §4), releasing the recordings' object URLs. */
export function clearScores(): void {
  for (const entry of Object.values(subTitlesScores.peek())) {
    revoke(entry.firstSource);
    revoke(entry.secondSource);
  }
  subTitlesScores.value = {};
  serialized.clear();
  persist();
}

/** The URL to play for an attempt: the local take, else the server copy named in the score JSON. */
export function playableSource(entry: SubtitleScore, attempt: 1 | 2): string {
  const source = attempt === 1 ? entry.firstSource : entry.secondSource;
  if (source) return source;
  const json = attempt === 1 ? entry.firstUserAudioJson : entry.secondUserAudioJson;
  try {
    const url = json ? (JSON.parse(json) as { audioUrl?: unknown }).audioUrl : undefined;
    return typeof url === 'string' ? prefixImage(url) : '';
  } catch {
    return '';
  }
}
