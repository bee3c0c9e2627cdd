import { signal } from '@preact/signals-react';
import type { RunLine, SpeechScore } from '../../../api/contract';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { prefixImage } from '../../../api/image';
import { onClearLocalData } from '../session';
import { readJson, writeJson } from '../storage';

/**
 * subTitlesScores (docs/api.md, "Runs"): one entry per subtitle id. The first recording fills the `first*`
 * fields, a repeat fills `second*`. A line has a first and a second attempt (the spec): once both hold
 * speech it is not recorded again (`attemptsUsed`; the server refuses a third, error.attemptsUsed). A
 * take without speech uses none up: the next take replaces it.
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

/**
 * Where the entries live in sessionStorage: one key per line, `prpt.subTitlesScores/<subtitle id>`,
 * holding that entry's JSON. A new score writes its own line's key only: an entry carries its take's
 * contours (about 10–35 K characters), and rewriting every line's on each score made one long task
 * per score on slow devices (docs/performance.md).
 */
export const SCORES_KEY = 'prpt.subTitlesScores';
export const scoreEntryKey = (subtitlesId: string) => `${SCORES_KEY}/${subtitlesId}`;
const ENTRY_PREFIX = `${SCORES_KEY}/`;

const isBlobUrl = (s: string | undefined) => !!s && s.startsWith('blob:');

function revoke(url: string | undefined): void {
  if (isBlobUrl(url)) URL.revokeObjectURL(url as string);
}

/** Every stored entry, by subtitle id. */
function readStoredScores(): SubTitlesScores {
  const out: SubTitlesScores = {};
  try {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i);
      if (!key?.startsWith(ENTRY_PREFIX)) continue;
      const entry = readJson<SubtitleScore>(sessionStorage, key);
      if (entry) out[key.slice(ENTRY_PREFIX.length)] = entry;
    }
  } catch (e) {
    console.error('[storage] cannot read the scores', e);
  }
  return out;
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

export const subTitlesScores = signal<SubTitlesScores>(restoreScores(readStoredScores()));

/** Lines whose entry changed (written) or went (removed) since the last write. */
const dirty = new Set<string>();

function storeLine(subtitlesId: string): void {
  const key = scoreEntryKey(subtitlesId);
  const entry = subTitlesScores.peek()[subtitlesId];
  try {
    if (entry) sessionStorage.setItem(key, JSON.stringify(entry));
    else sessionStorage.removeItem(key);
  } catch (e) {
    console.error(`[storage] cannot write ${key}`, e);
  }
}

let persistQueued = false;

/** Writes the lines waiting for `persistSoon` (each its own key). */
export function flushStoredScores(): void {
  persistQueued = false;
  const lines = [...dirty];
  dirty.clear();
  for (const id of lines) storeLine(id);
}

/**
 * Writes the changed lines in a task of their own when the page is idle (within half a second), and
 * at once when the page goes away: not in the upload queue's task that delivered the score (docs/
 * performance.md, "Line end → score shown"); scores arriving together are written once.
 */
function persistSoon(subtitlesId: string): void {
  dirty.add(subtitlesId);
  if (persistQueued) return;
  persistQueued = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(flushStoredScores, { timeout: 500 });
  else setTimeout(flushStoredScores, 0);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushStoredScores);

/** Sets one line's entry in the signal, and its key in sessionStorage soon after (a reload keeps it). */
function saveEntry(subtitlesId: string, entry: SubtitleScore): void {
  subTitlesScores.value = { ...subTitlesScores.peek(), [subtitlesId]: entry };
  persistSoon(subtitlesId);
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

/** Takes with speech a line holds before it is done: the spec's first and second attempt. */
export const ATTEMPTS_PER_LINE = 2;

/** Whether this line's attempts are used: its first and second take both hold speech. */
export function attemptsUsed(entry: SubtitleScore | undefined): boolean {
  if (!entry?.secondUserAudioJson) return false;
  const heard = ([1, 2] as const).filter((n) => takeScore(entry, n)?.quality.speechDetected !== false);
  return heard.length >= ATTEMPTS_PER_LINE;
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
      dirty.add(id);
      changed = true;
    }
  }
  for (const line of lines) {
    if (next[line.subtitlesId]) continue;
    const entry = entryFromRun(line);
    next[line.subtitlesId] = entry;
    dirty.add(line.subtitlesId);
    changed = true;
  }
  if (!same) {
    scoresRun = { ...scoresRun, [filmId]: runId };
    writeJson(sessionStorage, SCORES_RUN_KEY, scoresRun);
  }
  if (!changed) return;
  subTitlesScores.value = next;
  // At once: the screen that adopted the run may be left before the page is idle.
  flushStoredScores();
}

/** Empties the scores on request (logout, session expiry), releasing the recordings' object URLs. */
export function clearScores(): void {
  for (const entry of Object.values(subTitlesScores.peek())) {
    revoke(entry.firstSource);
    revoke(entry.secondSource);
  }
  subTitlesScores.value = {};
  dirty.clear();
  try {
    const keys: string[] = [];
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i);
      if (key?.startsWith(ENTRY_PREFIX)) keys.push(key);
    }
    for (const key of keys) sessionStorage.removeItem(key);
  } catch (e) {
    console.error('[storage] cannot clear the scores', e);
  }
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
