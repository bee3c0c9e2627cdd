/**
 * The one rule for every figure that sums up a run's dubbing (docs/architecture.md, "One rule for a
 * run's figures"): the report and its H5 page (server/reports/build-report.ts), the voice tips
 * (src/audio/scoring/interpret.ts), the run history and the dub page all take their counts and
 * averages from `aggregateRun`, so one run shows the same figures wherever it appears. Pure: the
 * client and the server import it.
 *
 * - Which take counts: per line, the latest take of the run (its second attempt when there is one,
 *   else its first; server/takes/attempts.ts picks them).
 * - Silence is not a score: a take in which no speech was detected (`quality.speechDetected`, a fact
 *   the scorer measures) leaves its line "recorded, no speech": counted in `dubbedLines` and
 *   `silentLines`, asked to be recorded again, and left out of every average and rate. Its 0 is not
 *   the learner's performance.
 * - Averages and rates are over the scored lines (latest take with speech); null when there are none.
 */
import type { SpeechScore, SubScores } from '../../api/contract';

/** The parts of a scored take the rule reads (a report's line summary has them too). */
export interface AggregateTake {
  overall: number;
  scores: SubScores;
  /** False when the scorer detected no speech in the take; absent (older summaries): speech. */
  speechDetected?: boolean;
  /** The emotion the take aimed at (null: none to match). */
  target: string | null;
  /**
   * Whether the take's emotion was heard clearly enough to be named to the learner
   * (`emotion.named`, emotion-match.ts `emotionClaim`); absent: not named.
   */
  named?: boolean;
}

export interface AggregateLine {
  subtitlesId: string;
  first: AggregateTake | null;
  second: AggregateTake | null;
}

export interface RunAggregate {
  /** Lines of the film. */
  totalLines: number;
  /** Lines with at least one take (with speech or not). */
  dubbedLines: number;
  /** Lines whose latest take has speech: the lines every average is over. */
  scoredLines: number;
  /** Lines whose latest take has no speech (ids in film order): each asks for a retake. */
  silentLines: number;
  silentLineIds: string[];
  /** Mean overall of the scored lines, one decimal. */
  average: number | null;
  /** Mean emotion sub-score of the scored lines, one decimal. */
  emotionAverage: number | null;
  /**
   * Of the scored lines with a target whose emotion was heard clearly enough to be named, the share
   * (0–1, three decimals) whose emotion sub-score reaches EMOTION_PASS; null when there is no such
   * line. A line the app words "no clear emotion heard" is not counted as a match: its sub-score
   * then rests on energy, and a rate of emotion matches must not say more than the line does.
   */
  emotionMatchRate: number | null;
  /** Mean (second − first) overall over lines whose both attempts have speech, one decimal. */
  improvement: number | null;
  /** Lines `improvement` is over. */
  improvedLines: number;
  /** Mean of each sub-score over the scored lines, one decimal. */
  subScores: SubScores | null;
}

/** An emotion sub-score at or above this counts as a line whose emotion came across. */
export const EMOTION_PASS = 60;

const SUB_SCORES: Array<keyof SubScores> = ['emotion', 'intonation', 'energy', 'timing', 'quality'];

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round1 = (x: number | null) => (x === null ? null : round(x, 1));

/** Whether a take is a score at all: speech was detected in it. */
export function hasSpeech(take: Pick<AggregateTake, 'speechDetected'>): boolean {
  return take.speechDetected !== false;
}

/** Whether a change shown to one decimal is a change at all: "+0.0 points" reads as a score of 0. */
export function changeDirection(change: number): 'up' | 'down' | 'same' {
  const shown = Math.round(change * 10);
  return shown > 0 ? 'up' : shown < 0 ? 'down' : 'same';
}

/** The take that counts for a line: its latest. */
export function countingTake<T>(line: { first: T | null; second: T | null }): T | null {
  return line.second ?? line.first;
}

/**
 * A stored score as the rule reads it. The target is the line's annotated emotion when the caller
 * knows it (the film's data), else the one the scorer aimed at.
 */
export function aggregateTake(score: SpeechScore, annotated: string | null = null): AggregateTake {
  return {
    overall: score.overall,
    scores: score.scores,
    speechDetected: score.quality.speechDetected,
    target: annotated ?? score.emotion.target,
    named: score.emotion.named ?? score.emotion.clear ?? false,
  };
}

/** The counts and the average: what a run's summary (the history, the film list) shows of the rule. */
export interface RunCounts {
  dubbedLines: number;
  scoredLines: number;
  silentLineIds: string[];
  average: number | null;
}

type Counted = Pick<AggregateTake, 'overall' | 'speechDetected'>;

/** The rule's counts and average alone, for summaries that read only `overall` and the speech fact. */
export function runCounts(
  lines: readonly { subtitlesId: string; first: Counted | null; second: Counted | null }[],
): RunCounts {
  const overall: number[] = [];
  const silentLineIds: string[] = [];
  let dubbedLines = 0;
  for (const line of lines) {
    const take = countingTake(line);
    if (!take) continue;
    dubbedLines += 1;
    if (hasSpeech(take)) overall.push(take.overall);
    else silentLineIds.push(line.subtitlesId);
  }
  return { dubbedLines, scoredLines: overall.length, silentLineIds, average: round1(mean(overall)) };
}

/** The run's figures from its lines (every line of the film, in film order; lines without takes too). */
export function aggregateRun(lines: readonly AggregateLine[], totalLines = lines.length): RunAggregate {
  const counts = runCounts(lines);
  const scored: AggregateTake[] = [];
  const changes: number[] = [];
  for (const line of lines) {
    const take = countingTake(line);
    if (take && hasSpeech(take)) scored.push(take);
    if (line.first && line.second && hasSpeech(line.first) && hasSpeech(line.second))
      changes.push(line.second.overall - line.first.overall);
  }
  const targeted = scored.filter((t) => t.target !== null && t.named === true);
  const subScores = scored.length
    ? (Object.fromEntries(
        SUB_SCORES.map((k) => [k, round(mean(scored.map((t) => t.scores[k])) ?? 0, 1)]),
      ) as unknown as SubScores)
    : null;
  return {
    totalLines,
    dubbedLines: counts.dubbedLines,
    scoredLines: counts.scoredLines,
    silentLines: counts.silentLineIds.length,
    silentLineIds: counts.silentLineIds,
    average: counts.average,
    emotionAverage: subScores ? subScores.emotion : null,
    emotionMatchRate: targeted.length
      ? round(targeted.filter((t) => t.scores.emotion >= EMOTION_PASS).length / targeted.length, 3)
      : null,
    improvement: round1(mean(changes)),
    improvedLines: changes.length,
    subScores,
  };
}
