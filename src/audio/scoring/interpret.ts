/**
 * The sound suggestion (get_sounds_interpretation): a learner's scored lines for one film turned
 * into a short, specific reading of their voice, one statement per topic (pure).
 *
 * Every statement is a fact of the shared catalogue (src/i18n) quoting figures measured on the stored
 * takes: pitch range, melody, loudness range, pace (the time taken against the actor's), emotion fit
 * (force against the target; a category only where it was heard clearly), first → second attempt
 * change, and the one thing to practise next (the weakest sub-score, explained with its own numbers).
 */
import type { Emotion, SoundSuggestData, SpeechScore, SubScores } from '../../api/contract';
import { type Fact, type FactValue, fact } from '../../i18n/statements';
import {
  aggregateRun,
  aggregateTake,
  changeDirection,
  EMOTION_PASS,
  hasSpeech,
  type RunAggregate,
} from './aggregate';
import { round } from './contour';
import { AROUSAL_TOLERANCE, emotionName, targetNamed } from './labels';
import { SOLO } from './subscores';
import { statementArea } from './tips';

export interface InterpretLine {
  subtitlesId: string;
  /** Line number as the film shows it (1-based). */
  index: number;
  text: string;
  first: SpeechScore | null;
  second: SpeechScore | null;
  /** The line's annotated emotion, when known (the run figures match against it: aggregate.ts). */
  target?: string | null;
}

/** A statement's topic (the client shows its name as the statement's head). */
export type Topic = Exclude<NonNullable<SoundSuggestData['points']>[number]['topic'], 'none'>;

export interface InterpretStatement {
  topic: Topic;
  /** Whether the topic's name heads the statement (not for the "nothing to read yet" ones). */
  headed: boolean;
  /** The figures it quotes (paths into the answer: `figures.average`, `subScores.intonation`). */
  figures: string[];
  fact: Fact;
}

export interface Interpretation {
  statements: InterpretStatement[];
  figures: SoundSuggestData['figures'];
  subScores: SubScores | null;
  pitchDistanceSt: number | null;
}

const SUB_SCORES: Array<keyof SubScores> = ['emotion', 'intonation', 'energy', 'timing', 'quality'];

function medianOf(values: Array<number | null | undefined>): number | null {
  const v = values
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    .sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

function meanOf(values: number[]): number | null {
  return values.length ? values.reduce((s, x) => s + x, 0) / values.length : null;
}

/** The attempt that counts for "how you sound now": the second when there is one. */
function latest(line: InterpretLine): SpeechScore | null {
  return line.second ?? line.first;
}

const r1 = (v: number) => round(v, 1);

function rangeLine(takes: SpeechScore[]): Fact | null {
  const learner = medianOf(takes.map((t) => t.prosody.learner.pitchRangeSemitones));
  if (learner === null) return null;
  const actor = medianOf(takes.map((t) => t.prosody.actor?.pitchRangeSemitones));
  if (actor === null) {
    return fact('suggest.range.alone', {
      learner: r1(learner),
      flat: learner < SOLO.pitchTipSt ? 'yes' : 'no',
    });
  }
  const ratio = learner / Math.max(0.1, actor);
  const verdict = ratio < 0.75 ? 'narrower' : ratio > 1.33 ? 'wider' : 'same';
  return fact('suggest.range', { learner: r1(learner), actor: r1(actor), verdict });
}

function melodyLine(takes: SpeechScore[], means: SubScores): Fact | null {
  if (takes.length === 0) return null;
  const score = Math.round(means.intonation);
  const compared = takes.filter((t) => t.comparison);
  const distance = pitchDistance(takes);
  const ends = compared.filter(
    (t) =>
      t.comparison?.learnerEndMoveSt != null &&
      t.comparison.actorEndMoveSt != null &&
      Math.abs(t.comparison.actorEndMoveSt) >= 1.5 &&
      Math.sign(t.comparison.learnerEndMoveSt) !== Math.sign(t.comparison.actorEndMoveSt),
  ).length;
  const withEnds = compared.filter((t) => t.comparison?.actorEndMoveSt != null).length;
  if (distance === null) return fact('suggest.melody.scoreOnly', { score });
  return fact('suggest.melody', { gapSt: r1(distance), score, ends, withEnds });
}

function energyLine(takes: SpeechScore[], means: SubScores): Fact | null {
  const learner = medianOf(takes.map((t) => t.prosody.learner.loudnessRangeDb));
  if (learner === null) return null;
  const actor = medianOf(takes.map((t) => t.prosody.actor?.loudnessRangeDb));
  const score = Math.round(means.energy);
  if (actor === null) return fact('suggest.energy.alone', { learner: Math.round(learner), score });
  const diff = learner - actor;
  const verdict = diff < -3 ? 'narrower' : diff > 3 ? 'wider' : 'same';
  return fact('suggest.energy', { learner: Math.round(learner), actor: Math.round(actor), verdict, score });
}

/**
 * Pace as one quantity: the median time the learner took for a line against the actor's (the
 * speech-span ratio). The syllable rate is a different measure and is not quoted beside it.
 */
function paceLine(takes: SpeechScore[]): Fact | null {
  const ratio = medianOf(takes.map((t) => t.comparison?.durationRatio));
  if (ratio === null) return null;
  const shown = round(ratio, 2);
  const verdict = ratio > 1.1 ? 'slower' : ratio < 0.9 ? 'faster' : 'same';
  return fact('suggest.pace', { ratio: shown, verdict });
}

/** An emotion sub-score at or above this counts as a line whose emotion came across (aggregate.ts). */
export { EMOTION_PASS };

/**
 * Emotion over the lines with a target: how many came across (emotion score ≥ EMOTION_PASS), which
 * way the force missed (the arousal gap, which carries across voices), and a category only where
 * the reading was clear enough to name (stored results without `clear` never name one).
 */
function emotionLine(takes: SpeechScore[]): { line: Fact | null; rate: number | null } {
  const targeted = takes.filter((t) => t.emotion.target !== null);
  if (targeted.length === 0) return { line: null, rate: null };
  const passed = targeted.filter((t) => t.scores.emotion >= EMOTION_PASS).length;
  const rate = passed / targeted.length;
  const gaps = targeted
    .map((t) => t.emotion.arousalGap)
    .filter((g): g is number => typeof g === 'number' && Number.isFinite(g));
  const weak = gaps.filter((g) => g < -AROUSAL_TOLERANCE).length;
  const strong = gaps.filter((g) => g > AROUSAL_TOLERANCE).length;
  // Only clear readings may name a heard emotion.
  const slips = new Map<string, number>();
  for (const t of targeted) {
    if (!(t.emotion.named ?? t.emotion.clear) || t.emotion.detected === t.emotion.target) continue;
    if (!targetNamed(t.emotion)) continue;
    const key = `${t.emotion.target}>${t.emotion.detected}`;
    slips.set(key, (slips.get(key) ?? 0) + 1);
  }
  const top = [...slips.entries()].sort((a, b) => b[1] - a[1])[0];
  let slip: FactValue = '';
  if (top) {
    const [target, heard] = top[0].split('>') as [Emotion, Emotion];
    slip = fact('suggest.emotion.slip', {
      target: emotionName(target),
      heard: emotionName(heard),
      count: top[1],
    });
  }
  return {
    rate,
    line: fact('suggest.emotion', {
      targeted: targeted.length,
      passed,
      pass: EMOTION_PASS,
      rate: round(rate, 3),
      gaps: gaps.length ? 'yes' : 'no',
      near: gaps.length - weak - strong,
      weak,
      strong,
      slip,
    }),
  };
}

function improvementLine(lines: InterpretLine[]): { line: Fact; improvement: number | null } {
  // Pairs whose both takes have speech: a silent take is not a score (aggregate.ts).
  const pairs = lines.filter(
    (l) => l.first && l.second && hasSpeech(aggregateTake(l.first)) && hasSpeech(aggregateTake(l.second)),
  ) as Array<{
    first: SpeechScore;
    second: SpeechScore;
  }>;
  if (pairs.length === 0) return { improvement: null, line: fact('suggest.progress.none') };
  const improvement = pairs.reduce((s, p) => s + (p.second.overall - p.first.overall), 0) / pairs.length;
  const deltas = SUB_SCORES.map((k) => ({
    k,
    d: pairs.reduce((s, p) => s + (p.second.scores[k] - p.first.scores[k]), 0) / pairs.length,
  })).sort((a, b) => b.d - a.d);
  const best = deltas[0];
  return {
    improvement,
    line: fact('suggest.progress', {
      lines: pairs.length,
      direction: changeDirection(improvement),
      change: r1(improvement),
      area: fact(`area.${best.k}`),
      areaChange: r1(best.d),
      better: best.d > 0 ? 'yes' : 'no',
    }),
  };
}

/** The weakest sub-score: the one the practice statement is about. */
function weakestSubScore(means: SubScores): keyof SubScores {
  return [...SUB_SCORES].sort((a, b) => means[a] - means[b])[0];
}

/**
 * The take's first statement about `area`, so the example given for the weakest area is advice about
 * that area (a loudness tip under "intonation" contradicts it). Results from before facts carry only
 * worded tips, whose area is unknown: no example then.
 */
function firstTip(take: SpeechScore, area: keyof SubScores): FactValue | null {
  const s = take.statements?.find((x) => statementArea(x.id) === area);
  return s ? (s as Fact) : null;
}

/** The weakest sub-score with a concrete exercise, and the most specific tip measured for it. */
function practiceLine(takes: SpeechScore[], lines: InterpretLine[], means: SubScores): Fact {
  const k = weakestSubScore(means);
  // The most specific tip already measured for that area, taken from the weakest take.
  const worst = [...takes].sort((a, b) => a.scores[k] - b.scores[k])[0];
  const tip = firstTip(worst, k);
  const line = lines.find((l) => l.subtitlesId === worst.subtitlesId);
  return fact('suggest.practice', {
    area: fact(`area.${k}`),
    average: Math.round(means[k]),
    exercise: fact(`exercise.${k}`),
    example: tip && line ? fact('suggest.practice.example', { index: line.index, text: line.text, tip }) : '',
  });
}

/** Median aligned pitch gap to the actor over the compared takes (semitones). */
function pitchDistance(takes: SpeechScore[]): number | null {
  return medianOf(takes.filter((t) => t.comparison).map((t) => t.comparison?.pitchDistanceSt));
}

/** Mean of each sub-score over the takes, to one decimal: the statements quote these figures. */
function subScoreMeans(takes: SpeechScore[]): SubScores {
  const out = {} as SubScores;
  for (const k of SUB_SCORES) out[k] = round(meanOf(takes.map((t) => t.scores[k])) ?? 0, 1);
  return out;
}

export function interpretVoice(lines: InterpretLine[], totalLines: number): Interpretation {
  const agg = runAggregate(lines, totalLines);
  const takes = lines.map(latest).filter((t): t is SpeechScore => t !== null && hasSpeech(aggregateTake(t)));
  if (takes.length === 0) return nothingScored(agg, totalLines);
  // Figures are rounded once here and the statements quote the rounded values, so a card showing
  // a figure beside its statement shows the same number.
  const means = agg.subScores ?? subScoreMeans(takes);
  const progress = improvementLine(lines);
  const distance = pitchDistance(takes);
  return {
    statements: scoredStatements({ lines, takes, agg, totalLines, means, progress: progress.line }),
    figures: runFigures(takes, agg, totalLines, progress.improvement),
    subScores: means,
    pitchDistanceSt: distance === null ? null : round(distance, 2),
  };
}

/**
 * The counts and averages are the run's figures by the one rule (aggregate.ts): the latest take per
 * line, a take without speech counted as recorded but not scored.
 */
function runAggregate(lines: InterpretLine[], totalLines: number): RunAggregate {
  return aggregateRun(
    lines.map((l) => ({
      subtitlesId: l.subtitlesId,
      first: l.first ? aggregateTake(l.first, l.target ?? null) : null,
      second: l.second ? aggregateTake(l.second, l.target ?? null) : null,
    })),
    totalLines,
  );
}

/** No take with speech: one statement, that nothing is dubbed yet or that no speech was heard. */
function nothingScored(agg: RunAggregate, totalLines: number): Interpretation {
  const { scoredLines, dubbedLines } = agg;
  return {
    statements: [
      {
        topic: 'overall',
        headed: false,
        figures: ['figures.dubbedLines'],
        fact:
          dubbedLines === 0
            ? fact('suggest.none', { totalLines })
            : fact('suggest.allSilent', { dubbedLines }),
      },
    ],
    figures: {
      scoredLines,
      dubbedLines,
      silentLines: agg.silentLines,
      emotionAverage: null,
      totalLines,
      average: null,
      improvement: null,
      pitchRangeSemitones: null,
      syllablesPerSecond: null,
      loudnessRangeDb: null,
      emotionMatchRate: null,
    },
    subScores: null,
    pitchDistanceSt: null,
  };
}

/** One statement per topic that has something to say, each with the figures it quotes. */
function scoredStatements({
  lines,
  takes,
  agg,
  totalLines,
  means,
  progress,
}: {
  lines: InterpretLine[];
  takes: SpeechScore[];
  agg: RunAggregate;
  totalLines: number;
  means: SubScores;
  progress: Fact;
}): InterpretStatement[] {
  const { scoredLines, dubbedLines, silentLines: silent } = agg;
  const average = agg.average ?? 0;
  const weakest = weakestSubScore(means);
  const statements: Array<[Topic, string[], Fact | null]> = [
    [
      'overall',
      ['figures.scoredLines', 'figures.average'],
      silent > 0
        ? fact('suggest.overallSilent', {
            dubbedLines,
            totalLines,
            silent,
            scoredLines,
            average: Math.round(average),
          })
        : fact('suggest.overall', { scoredLines, totalLines, average: Math.round(average) }),
    ],
    ['range', ['figures.pitchRangeSemitones'], rangeLine(takes)],
    ['melody', ['subScores.intonation', 'pitchDistanceSt'], melodyLine(takes, means)],
    ['energy', ['figures.loudnessRangeDb', 'subScores.energy'], energyLine(takes, means)],
    ['pace', ['figures.durationRatio'], paceLine(takes)],
    ['emotion', ['figures.emotionMatchRate'], emotionLine(takes).line],
    ['progress', ['figures.improvement'], progress],
    ['practice', [`subScores.${weakest}`], practiceLine(takes, lines, means)],
  ];
  return statements
    .filter((s): s is [Topic, string[], Fact] => s[2] !== null)
    .map(([topic, figures, f]) => ({ topic, headed: true, figures, fact: f }));
}

/** The run's figures: its counts and averages, and the medians of the takes' measures. */
function runFigures(
  takes: SpeechScore[],
  agg: RunAggregate,
  totalLines: number,
  improvement: number | null,
): SoundSuggestData['figures'] {
  const range = medianOf(takes.map((t) => t.prosody.learner.pitchRangeSemitones));
  const rate = medianOf(takes.map((t) => t.prosody.learner.syllablesPerSecond));
  const loud = medianOf(takes.map((t) => t.prosody.learner.loudnessRangeDb));
  const ratio = medianOf(takes.map((t) => t.comparison?.durationRatio));
  return {
    scoredLines: agg.scoredLines,
    dubbedLines: agg.dubbedLines,
    silentLines: agg.silentLines,
    emotionAverage: agg.emotionAverage,
    totalLines,
    average: agg.average ?? 0,
    improvement: improvement === null ? null : round(improvement, 1),
    pitchRangeSemitones: range === null ? null : round(range, 2),
    syllablesPerSecond: rate === null ? null : round(rate, 2),
    loudnessRangeDb: loud === null ? null : round(loud, 2),
    emotionMatchRate: agg.emotionMatchRate,
    durationRatio: ratio === null ? null : round(ratio, 2),
  };
}
