/**
 * The learner's latest take of each line, as a playable URL: on the dub page from the scores of this
 * visit (the local take, else the server copy), on the report from the run's second, else first, take.
 */
import type { ReportLine } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { playableSource, type SubTitlesScores } from './sub-titles-scores';

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
