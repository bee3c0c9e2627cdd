import { signal } from '@preact/signals-react';
import type { RunLine, SpeechScore } from '../../../api/contract';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { prefixImage } from '../../../api/image';
import { onClearLocalData } from '../session';
import { readJson, writeJson } from '../storage';

/**
 * subTitlesScores (docs/api.md, "Runs"): one entry per subtitle id. The first recording fills the `first*`
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

let persistQueued = false;

/** Writes the map if a score is waiting for `persistSoon`. */
export function flushStoredScores(): void {
  if (!persistQueued) return;
  persistQueued = false;
  persist();
}

/**
 * Writes the map in a task of its own when the page is idle (within half a second), and at once when
 * the page goes away. Writing the whole map (~10 KB per scored line) in the upload queue's task made
 * that task long on slow devices (docs/performance.md, "Line end → score shown"); scores arriving
 * together are written once.
 */
function persistSoon(): void {
  if (persistQueued) return;
  persistQueued = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(flushStoredScores, { timeout: 500 });
  else setTimeout(flushStoredScores, 0);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushStoredScores);

/** Sets one line's entry in the signal, and in sessionStorage soon after (a reload keeps it). */
function saveEntry(subtitlesId: string, entry: SubtitleScore): void {
  subTitlesScores.value = { ...subTitlesScores.peek(), [subtitlesId]: entry };
  serialized.set(subtitlesId, JSON.stringify(entry));
  persistSoon();
}

/**
 * Records one scored take for a line and returns which attempt it became (1 or 2).
 * Persisted to sessionStorage soon after (`persistSoon`); only this entry is serialised anew.
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

/** Which run (docs/api.md, "Runs") each film's entries belong to: filmId → runId. */
export const SCORES_RUN_KEY = 'prpt.subTitlesScoresRun';
let scoresRun: Record<string, string> =
  readJson<Record<string, string>>(sessionStorage, SCORES_RUN_KEY) ?? {};

/** The run this device's entries of a film belong to, if known. */
export function scoresRunOf(filmId: string): string | undefined {
  return scoresRun[filmId];
}

/** The result of one attempt of a line, read from its JSON text (the one reader, contract/parse-score.ts). */
export function takeScore(entry: SubtitleScore | undefined, attempt: 1 | 2): SpeechScore | null {
  if (!entry) return null;
  return parseSpeechScore(attempt === 1 ? entry.firstUserAudioJson : entry.secondUserAudioJson);
}

const filmOf = (entry: SubtitleScore): string | null => takeScore(entry, 1)?.filmId ?? null;

/** A run's line as a restored entry: no local take, the server copies play (`playableSource`). */
function entryFromRun(line: RunLine): SubtitleScore {
  return {
    subtitlesId: line.subtitlesId,
    firstUserAudioJson: JSON.stringify(line.first),
    firstSource: '',
    firstSourceLost: true,
    ...(line.second
      ? { secondUserAudioJson: JSON.stringify(line.second), secondSource: '', secondSourceLost: true }
      : {}),
  };
}

/**
 * Makes a film's entries those of the run `runId` (get_run's lines, or none for a run just started).
 * The same run as held: lines this device has not seen are added (dubbed in another session), its own
 * entries stay (they hold the local recordings). Another run: the film's entries are replaced, since a
 * new run starts clean and an earlier one is read through its report.
 */
export function adoptRunScores(filmId: string, runId: string | null, lines: readonly RunLine[]): void {
  if (!runId) return;
  const same = scoresRun[filmId] === runId;
  const next: SubTitlesScores = { ...subTitlesScores.peek() };
  let changed = false;
  if (!same) {
    for (const [id, entry] of Object.entries(next)) {
      if (filmOf(entry) !== filmId) continue;
      revoke(entry.firstSource);
      revoke(entry.secondSource);
      delete next[id];
      serialized.delete(id);
      changed = true;
    }
  }
  for (const line of lines) {
    if (next[line.subtitlesId]) continue;
    const entry = entryFromRun(line);
    next[line.subtitlesId] = entry;
    serialized.set(line.subtitlesId, JSON.stringify(entry));
    changed = true;
  }
  if (!same) {
    scoresRun = { ...scoresRun, [filmId]: runId };
    writeJson(sessionStorage, SCORES_RUN_KEY, scoresRun);
  }
  if (!changed) return;
  subTitlesScores.value = next;
  persistQueued = false;
  persist();
}

/** Empties the scores on request (logout, session expiry), releasing the recordings' object URLs. */
export function clearScores(): void {
  for (const entry of Object.values(subTitlesScores.peek())) {
    revoke(entry.firstSource);
    revoke(entry.secondSource);
  }
  subTitlesScores.value = {};
  serialized.clear();
  persistQueued = false;
  persist();
  scoresRun = {};
  writeJson(sessionStorage, SCORES_RUN_KEY, null);
}

// Logout and session expiry empty the scores; the stored map goes with the storage they clear.
onClearLocalData(clearScores);

/** The URL to play for an attempt: the local take, else the server copy named in the score JSON. */
export function playableSource(entry: SubtitleScore, attempt: 1 | 2): string {
  const source = attempt === 1 ? entry.firstSource : entry.secondSource;
  if (source) return source;
  const url = takeScore(entry, attempt)?.audioUrl;
  return url ? prefixImage(url) : '';
}
