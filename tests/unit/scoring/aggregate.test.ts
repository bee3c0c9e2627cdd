import { describe, expect, it } from 'vitest';
import {
  type AggregateTake,
  aggregateRun,
  EMOTION_PASS,
  runCounts,
} from '../../../src/audio/scoring/aggregate';

const take = (overall: number, extra: Partial<AggregateTake> = {}): AggregateTake => ({
  overall,
  scores: { emotion: overall, intonation: overall, energy: overall, timing: overall, quality: 90 },
  speechDetected: true,
  target: 'anger',
  named: true,
  ...extra,
});
const silent = () => take(0, { speechDetected: false });

describe("one rule for a run's figures", () => {
  it('the latest take per line counts; a take without speech is recorded but not scored and in no average', () => {
    const agg = aggregateRun(
      [
        { subtitlesId: 'a', first: take(40), second: take(50) },
        { subtitlesId: 'b', first: take(80), second: null },
        { subtitlesId: 'c', first: silent(), second: null },
        { subtitlesId: 'd', first: null, second: null },
      ],
      4,
    );
    expect(agg).toMatchObject({
      totalLines: 4,
      dubbedLines: 3,
      scoredLines: 2,
      silentLines: 1,
      silentLineIds: ['c'],
      average: 65,
      emotionAverage: 65,
      emotionMatchRate: 0.5,
      improvement: 10,
      improvedLines: 1,
    });
    expect(agg.subScores).toEqual({ emotion: 65, intonation: 65, energy: 65, timing: 65, quality: 90 });
  });

  it('a silent retake replaces a scored first take (the latest counts) and leaves no improvement', () => {
    const agg = aggregateRun([{ subtitlesId: 'a', first: take(70), second: silent() }]);
    expect(agg).toMatchObject({ dubbedLines: 1, scoredLines: 0, silentLines: 1, average: null });
    expect(agg.improvement).toBeNull();
    expect(agg.emotionMatchRate).toBeNull();
    expect(agg.subScores).toBeNull();
  });

  it('emotion match: only scored lines with a target, at EMOTION_PASS and above', () => {
    const agg = aggregateRun([
      { subtitlesId: 'a', first: take(EMOTION_PASS), second: null },
      { subtitlesId: 'b', first: take(EMOTION_PASS - 1), second: null },
      { subtitlesId: 'c', first: take(10, { target: null }), second: null },
    ]);
    expect(agg.emotionMatchRate).toBe(0.5);
  });

  it('a line whose emotion was not heard clearly ("no clear emotion heard") is no emotion match', () => {
    const unnamed = { named: false };
    const agg = aggregateRun([
      { subtitlesId: 'a', first: take(90, unnamed), second: null },
      { subtitlesId: 'b', first: take(80, unnamed), second: null },
    ]);
    expect(agg.scoredLines).toBe(2);
    expect(agg.emotionMatchRate).toBeNull();
    const mixed = aggregateRun([
      { subtitlesId: 'a', first: take(90, unnamed), second: null },
      { subtitlesId: 'b', first: take(EMOTION_PASS), second: null },
      { subtitlesId: 'c', first: take(EMOTION_PASS - 1), second: null },
    ]);
    expect(mixed.emotionMatchRate).toBe(0.5);
  });

  it('the summaries (history, film list) get the same counts and average from runCounts', () => {
    const lines = [
      { subtitlesId: 'a', first: take(33), second: take(34) },
      { subtitlesId: 'b', first: silent(), second: null },
      { subtitlesId: 'c', first: take(35), second: null },
    ];
    const full = aggregateRun(lines);
    expect(runCounts(lines)).toEqual({
      dubbedLines: full.dubbedLines,
      scoredLines: full.scoredLines,
      silentLineIds: full.silentLineIds,
      average: full.average,
    });
    expect(full.average).toBe(34.5);
  });
});
