import type { FilmDetail, Subtitle } from '../../api/contract';
import { mmssToSeconds } from './time';

/** A subtitle line with its derived windows: `startTime_m`/`endTime_m` in seconds. */
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

/**
 * The language of the film's original lines, as a BCP 47 tag for its text track and the lines shown:
 * films carry no language field, so it is read from the text. Chinese characters → `zh`; German
 * letters or common German words → `de` (the demo films); anything else `und` (undetermined), never a
 * guess such as `en` that a screen reader would read aloud wrongly.
 */
export function originalLanguage(lines: readonly { text: string }[]): string {
  const text = lines.map((l) => l.text).join(' ');
  if (/[\u4e00-\u9fff]/.test(text)) return 'zh';
  if (/[äöüßÄÖÜ]|\b(der|die|das|und|ist|nicht|ich|sie|wir|auf|dem)\b/i.test(text)) return 'de';
  return 'und';
}
