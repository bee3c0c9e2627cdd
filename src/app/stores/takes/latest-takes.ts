/**
 * The learner's latest take of each line, as a playable URL: on the dub page from the scores of this
 * visit (the local take, else the server copy), on the report from the run's second, else first, take.
 * The same for each latest take's version with the actor's melody, for Watch my dub's choice.
 */
import type { MelodyVersion, ReportLine } from '../../../api/contract';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { prefixImage } from '../../../api/image';
import { playableSource, type SubtitleScore, type SubTitlesScores } from './sub-titles-scores';

export type LatestTakes = Record<string, string>;

export function latestTakesFromScores(scores: SubTitlesScores): LatestTakes {
  const out: LatestTakes = {};
  for (const [id, entry] of Object.entries(scores)) {
    const url = (entry.secondUserAudioJson ? playableSource(entry, 2) : '') || playableSource(entry, 1);
    if (url) out[id] = url;
  }
  return out;
}

export function latestTakesFromReport(lines: readonly ReportLine[]): LatestTakes {
  const out: LatestTakes = {};
  for (const l of lines) {
    const take = l.second ?? l.first;
    if (take?.audioUrl) out[l.subtitlesId] = prefixImage(take.audioUrl);
  }
  return out;
}

const melodyUrl = (m: MelodyVersion | undefined) => (m?.status === 'ready' ? prefixImage(m.url) : '');

/**
 * Each entry's melody URL, read once: a new score replaces only its own entry object, so the others'
 * JSON (with their contours) is not parsed again in the task that delivers a score.
 */
const melodyOfEntry = new WeakMap<SubtitleScore, string>();

/** The latest take's melody version of each line that has one (the server's copy, signed). */
export function latestMelodiesFromScores(scores: SubTitlesScores): LatestTakes {
  const out: LatestTakes = {};
  for (const [id, entry] of Object.entries(scores)) {
    let url = melodyOfEntry.get(entry);
    if (url === undefined) {
      url = melodyUrl(parseSpeechScore(entry.secondUserAudioJson ?? entry.firstUserAudioJson)?.melody);
      melodyOfEntry.set(entry, url);
    }
    if (url) out[id] = url;
  }
  return out;
}

export function latestMelodiesFromReport(lines: readonly ReportLine[]): LatestTakes {
  const out: LatestTakes = {};
  for (const l of lines) {
    const url = melodyUrl((l.second ?? l.first)?.melody);
    if (url) out[l.subtitlesId] = url;
  }
  return out;
}
