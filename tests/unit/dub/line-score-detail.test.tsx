import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SpeechScore } from '../../../src/api/contract';
import { parseSpeechScore } from '../../../src/app/features/dub/line-score-detail';
import { resetLineStates } from '../../../src/app/features/uploads/line-state';
import { clearScores, recordAttempt } from '../../../src/app/features/part/sub-titles-scores';
import { dubLine, renderDubRow } from './row-fixture';

const line = dubLine({
  id: 'detail-1',
  speaker: 'Anna',
  targetEmotion: 'anger',
  referenceAudio: '/media/ref/detail-1.wav',
});

/** A version 1 result (stored before confidence existed), or version 2 with a clear reading at 90 %. */
function score(
  attempt: number,
  overall: number,
  detected: SpeechScore['emotion']['detected'],
  tip: string,
  version: 1 | 2 = 1,
): SpeechScore {
  const probabilities = {
    anger: 0.1,
    boredom: 0.1,
    disgust: 0.1,
    fear: 0.1,
    happiness: 0.1,
    sadness: 0.1,
    neutral: 0.4,
  };
  const figures = {
    durationMs: 1500,
    speechMs: 1200,
    pitchMedianHz: 180,
    pitchRangeSemitones: 6,
    loudnessMeanDb: -20,
    loudnessRangeDb: 12,
    syllablesPerSecond: 4,
    pauseCount: 0,
    jitterPct: 1,
    shimmerDb: 0.5,
    hnrDb: 12,
  };
  const v2 = version === 2 ? { confidence: 0.9, clear: true, targetArousal: 0.8, arousalGap: -0.1 } : {};
  return {
    version,
    takeId: `take-${attempt}`,
    subtitlesId: line.id,
    filmId: 'film',
    attempt,
    overall,
    scores: { emotion: overall, intonation: 70, energy: 60, timing: 80, quality: 90 },
    emotion: {
      detected,
      probabilities,
      arousal: 0.2,
      valence: -0.3,
      target: 'anger',
      targetSource: 'annotated',
      actorProbabilities: probabilities,
      ...v2,
    },
    prosody: { learner: figures, actor: figures },
    contours: {
      t: [0, 0.1, 0.2],
      learnerPitch: [0, 2, null],
      actorPitch: [0, 3, 1],
      learnerLoudness: [-30, -20, -25],
      actorLoudness: [-28, -18, -26],
    },
    quality: { speechDetected: true, tooQuiet: false, clipped: false, snrDb: 30 },
    tips: [{ zh: tip, en: `en ${tip}` }],
    ...(version === 2 ? { deliveryLikeness: true } : {}),
    audioUrl: '/media/takes/u/t.wav',
    createdAt: '2026-11-21T00:00:00.000Z',
  };
}

const renderRow = () => renderDubRow(line);

describe('a scored line’s detail panel', () => {
  beforeEach(() => {
    resetLineStates();
    clearScores();
  });

  it('opens on request and shows both attempts side by side: score, heard vs target emotion, tips', () => {
    recordAttempt(line.id, JSON.stringify(score(1, 52, 'neutral', '第一次：语调再起伏大一些')), 'blob:1');
    recordAttempt(line.id, JSON.stringify(score(2, 81, 'anger', '第二次：保持这个力度', 2)), 'blob:2');
    renderRow();
    expect(screen.queryByTestId('line-score-detail')).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: '查看详情' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: '收起详情' })).toHaveAttribute('aria-expanded', 'true');

    const first = screen.getByRole('region', { name: '第一次' });
    const second = screen.getByRole('region', { name: '第二次' });
    expect(within(first).getByRole('img', { name: '第一次 综合 52' })).toBeInTheDocument();
    expect(within(second).getByRole('img', { name: '第二次 综合 81' })).toBeInTheDocument();
    // A version 1 result has no calibrated confidence: its heard emotion is not named.
    expect(within(first).getByText(/听不出明显的情绪/)).toBeInTheDocument();
    expect(within(first).queryByText('平静')).not.toBeInTheDocument();
    expect(within(second).getByText('愤怒 90%')).toBeInTheDocument(); // heard anger, clearly
    expect(within(second).getByText('愤怒')).toBeInTheDocument(); // target anger
    expect(screen.getByText(/衡量的是与演员表演方式的相似度/)).toBeInTheDocument();
    expect(within(first).getByText('第一次：语调再起伏大一些')).toBeInTheDocument();
    expect(within(second).getByText('第二次：保持这个力度')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '收起详情' }));
    expect(screen.queryByTestId('line-score-detail')).not.toBeInTheDocument();
  });

  it('offers no details for a line without a readable score', () => {
    recordAttempt(line.id, 'not json', 'blob:1');
    renderRow();
    expect(screen.queryByRole('button', { name: '查看详情' })).not.toBeInTheDocument();
  });

  it('reads version 1, 2 and 3 results, nothing else', () => {
    expect(parseSpeechScore(JSON.stringify(score(1, 50, 'fear', 'x')))?.overall).toBe(50);
    expect(parseSpeechScore(JSON.stringify(score(1, 60, 'fear', 'x', 2)))?.emotion.clear).toBe(true);
    const v3 = { ...score(1, 50, 'fear', 'x'), version: 3 };
    expect(parseSpeechScore(JSON.stringify(v3))?.emotion.clear).toBeUndefined();
    expect(parseSpeechScore(JSON.stringify({ ...v3, version: 4 }))).toBeNull();
    expect(parseSpeechScore('{')).toBeNull();
    expect(parseSpeechScore(undefined)).toBeNull();
  });
});
