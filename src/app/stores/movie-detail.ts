import type { FilmDetail, Subtitle } from '../../api/contract';
import { mmssToSeconds } from '../lib/time';

/** A subtitle line with the derived windows of spec §3: `startTime_m`/`endTime_m` in seconds. */
export type SubtitleLine = Subtitle & { startTime_m: number; endTime_m: number };
export type MovieDetail = Omit<FilmDetail, 'subtitlesList'> & { subtitlesList: SubtitleLine[] };

/** A line whose time is not `mm:ss`: named so the film can be fixed, instead of a NaN window. */
export class SubtitleTimeError extends Error {
  readonly code = 'BAD_SUBTITLE_TIME';
  constructor(
    readonly subtitleId: string,
    readonly field: 'startTime' | 'endTime',
    cause: unknown,
  ) {
    super(`Subtitle ${subtitleId}: ${field} ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'SubtitleTimeError';
  }
}

function seconds(line: Subtitle, field: 'startTime' | 'endTime'): number {
  try {
    return mmssToSeconds(line[field]);
  } catch (e) {
    throw new SubtitleTimeError(line.id, field, e);
  }
}

/** Adds `startTime_m`/`endTime_m` (60 × mm + ss) to every line; throws SubtitleTimeError on a malformed time. */
export function withSubtitleSeconds(detail: FilmDetail): MovieDetail {
  return {
    ...detail,
    subtitlesList: (detail.subtitlesList ?? []).map((line) => ({
      ...line,
      startTime_m: seconds(line, 'startTime'),
      endTime_m: seconds(line, 'endTime'),
    })),
  };
}
