import { type SpeechScore, speechScore } from '../../src/api/contract';
import type { TakesTable } from '../db/schema';
import { parseJson } from '../lib/json';
import { runCounts } from '../../src/audio/scoring/aggregate';

/** A stored take with its result read through the contract's `speechScore`, the one schema for takes. */
export interface ParsedTake {
  row: TakesTable;
  score: SpeechScore;
}

/** Reads a take's result; null when it does not parse (a result from an incompatible version is skipped). */
export function parseTake(row: TakesTable): ParsedTake | null {
  const parsed = speechScore.safeParse(parseJson<unknown>(row.result, null));
  return parsed.success ? { row, score: parsed.data } : null;
}

/** The columns the attempt rule reads. */
export type TakeOrder = Pick<TakesTable, 'id' | 'subtitle_id' | 'attempt' | 'created_at'>;

export interface Attempts<T> {
  /** The line's first take. */
  first: T;
  /** Its latest retake; null while the line has one take. */
  second: T | null;
  /** The line's takes in order (first … second). */
  all: T[];
}

/** Order of a line's takes: the attempt number the client gave, then the time the service stored it. */
function compareTakes(a: TakeOrder, b: TakeOrder): number {
  return a.attempt - b.attempt || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

/**
 * The one rule for "first" and "second" attempt, used by the report, the sound suggestion, the run
 * state, the run history and retention. Within one run (server/takes/runs.ts), per line: first = the
 * earliest take (lowest attempt, then oldest), second = the latest retake (highest attempt, then
 * newest) once the line has more than one take. Ordering by the client's attempt number first keeps
 * a retake that reached the service before its first take (an offline queue) in second place.
 */
export function orderAttempts<T extends TakeOrder>(rows: readonly T[]): Map<string, Attempts<T>> {
  const byLine = new Map<string, T[]>();
  for (const row of rows) {
    const list = byLine.get(row.subtitle_id) ?? [];
    list.push(row);
    byLine.set(row.subtitle_id, list);
  }
  const out = new Map<string, Attempts<T>>();
  for (const [line, takes] of byLine) {
    takes.sort(compareTakes);
    out.set(line, { first: takes[0], second: takes.length > 1 ? takes[takes.length - 1] : null, all: takes });
  }
  return out;
}

/** The attempt rule over readable takes only (a row whose result does not parse is left out). */
export function pickAttempts(rows: TakesTable[]): Map<string, Attempts<ParsedTake>> {
  const parsed = rows.map(parseTake).filter((t): t is ParsedTake => t !== null);
  const byRow = orderAttempts(parsed.map((t) => t.row));
  const take = new Map(parsed.map((t) => [t.row.id, t]));
  const out = new Map<string, Attempts<ParsedTake>>();
  for (const [line, a] of byRow) {
    out.set(line, {
      first: take.get(a.first.id)!,
      second: a.second ? take.get(a.second.id)! : null,
      all: a.all.map((r) => take.get(r.id)!),
    });
  }
  return out;
}

/** What the dubbing figures read of a take. */
export type TakeCount = Pick<TakesTable, 'id' | 'subtitle_id' | 'attempt' | 'created_at' | 'overall'> & {
  speech?: number;
};

/** A run's dubbed lines and dubbing average from its takes, by the rule of src/audio/scoring/aggregate.ts. */
export function dubbingFigures(takes: readonly TakeCount[]): {
  dubbed_lines: number;
  dubbing_average: number | null;
} {
  const counted = (t: TakeCount) => ({ overall: t.overall, speechDetected: t.speech !== 0 });
  const counts = runCounts(
    [...orderAttempts(takes)].map(([subtitlesId, a]) => ({
      subtitlesId,
      first: counted(a.first),
      second: a.second ? counted(a.second) : null,
    })),
  );
  return { dubbed_lines: counts.dubbedLines, dubbing_average: counts.average };
}
