/**
 * mm:ss ↔ seconds (docs/api.md, get_film_info: total seconds = 60 × minutes + seconds).
 * Pure: used by the page, the encoder worker and the server.
 */

/** Thrown for subtitle times that are not `mm:ss`, `mm:ss.fff` or `hh:mm:ss(.fff)`. */
export class TimeFormatError extends Error {
  readonly code = 'BAD_TIME';
  constructor(readonly input: unknown) {
    super(
      `Cannot read subtitle time ${JSON.stringify(input)}: expected mm:ss or mm:ss.fff ` +
        '(for example 01:02.5), with seconds below 60.',
    );
    this.name = 'TimeFormatError';
  }
}

const MMSS = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{1,2}(?:[.,]\d{1,6})?)$/;

/** `'01:02.5'` → 62.5. Accepts an optional leading hours part; rejects anything else with a clear error. */
export function mmssToSeconds(text: string): number {
  if (typeof text !== 'string') throw new TimeFormatError(text);
  const match = MMSS.exec(text.trim());
  if (!match) throw new TimeFormatError(text);
  const hours = match[1] === undefined ? 0 : Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3].replace(',', '.'));
  if (seconds >= 60 || (match[1] !== undefined && minutes >= 60)) throw new TimeFormatError(text);
  // Round to the microsecond so 60 * m + s does not carry binary noise (01:02.1 → 62.1, not 62.100000000000001).
  return Math.round((hours * 3600 + minutes * 60 + seconds) * 1e6) / 1e6;
}

/** 62.5 → `'01:02.500'` (milliseconds kept only when not whole). */
export function secondsToMmss(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) {
    throw new TimeFormatError(totalSeconds);
  }
  const ms = Math.round(totalSeconds * 1000);
  const minutes = Math.floor(ms / 60_000);
  const rest = ms - minutes * 60_000;
  const whole = Math.floor(rest / 1000);
  const frac = rest % 1000;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(whole).padStart(2, '0');
  return frac === 0 ? `${mm}:${ss}` : `${mm}:${ss}.${String(frac).padStart(3, '0')}`;
}
