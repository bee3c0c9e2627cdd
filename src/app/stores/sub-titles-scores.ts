import { signal } from '@preact/signals-react';
import { prefixImage } from '../../api/image';
import { readJson, writeJson } from './storage';

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

function save(next: SubTitlesScores): void {
  subTitlesScores.value = next;
  writeJson(sessionStorage, SCORES_KEY, next);
}

/**
 * Records one scored take for a line and returns which attempt it became (1 or 2).
 * Persisted to sessionStorage at once, so a reload keeps it.
 */
export function recordAttempt(subtitlesId: string, resultJson: string, source: string): 1 | 2 {
  const current = subTitlesScores.peek();
  const entry = current[subtitlesId];
  if (!entry) {
    save({ ...current, [subtitlesId]: { subtitlesId, firstUserAudioJson: resultJson, firstSource: source } });
    return 1;
  }
  if (entry.secondSource !== source) revoke(entry.secondSource);
  save({
    ...current,
    [subtitlesId]: {
      ...entry,
      secondUserAudioJson: resultJson,
      secondSource: source,
      secondSourceLost: false,
    },
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
  save({});
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
