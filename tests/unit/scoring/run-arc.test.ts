import { describe, expect, it } from 'vitest';
import type { LineAttemptSummary, ReportLine } from '../../../src/api/contract';
import { ARC_MIN_LINES, arcVerdict, sceneArc } from '../../../src/audio/scoring/emotion-match';
import { runArc } from '../../../server/reports/build-report';

const take = (arousal: number, speechDetected = true): LineAttemptSummary => ({
  overall: 60,
  scores: { emotion: 60, intonation: 60, energy: 60, timing: 60, quality: 90 },
  detected: 'neutral',
  speechDetected,
  arousal,
  valence: 0,
  audioUrl: '',
  createdAt: '2026-11-26T00:00:00Z',
});
const line = (
  index: number,
  actor: number | null,
  first: LineAttemptSummary | null,
  second: LineAttemptSummary | null = null,
): ReportLine => ({
  subtitlesId: `l${index}`,
  index,
  text: '',
  translation: { zh: '', en: '' },
  speaker: 'A',
  targetEmotion: null,
  actor: actor === null ? null : { detected: 'neutral', arousal: actor, valence: 0 },
  first,
  second,
});

describe('the scene arc of a run (report)', () => {
  it('follows the scene when the latest takes rise and fall with the actor, in film order', () => {
    // Listed out of order: the arc is read in film order. Line 2's second take replaces its first.
    const lines = [
      line(3, -0.4, take(0.0)),
      line(1, -0.5, take(0.1)),
      line(2, 0.7, take(-0.9), take(0.9)),
      line(4, 0.6, take(0.8)),
    ];
    const arc = runArc(lines);
    expect(arc?.lines).toBe(4);
    expect(arc?.verdict).toBe('follows');
    expect(arc?.score).toBeGreaterThanOrEqual(75);
  });

  it('says the arc does not follow when the learner moves against the actor', () => {
    const arc = runArc([line(1, -0.5, take(0.8)), line(2, 0.7, take(-0.6)), line(3, -0.3, take(0.5))]);
    expect(arc?.verdict).toBe('against');
    expect(arc?.score).toBeLessThan(50);
  });

  it('leaves out silent takes and lines without the actor; too few lines left gives no arc', () => {
    const lines = [
      line(1, -0.5, take(0.1)),
      line(2, 0.7, take(0.9, false)),
      line(3, null, take(0.9)),
      line(4, 0.6, take(0.8)),
    ];
    expect(ARC_MIN_LINES).toBe(3);
    expect(runArc(lines)).toBeNull();
  });

  it('a weak correlation is neither claim', () => {
    const arc = sceneArc(
      [0.1, 0.3, 0.0, 0.4].map((arousal) => ({ arousal })),
      [0.0, 0.1, 0.2, 0.3].map((arousal) => ({ arousal })),
    );
    expect(arc.correlation).not.toBeNull();
    expect(Math.abs(arc.correlation ?? 1)).toBeLessThan(0.5);
    expect(arc.correlation ?? -1).toBeGreaterThanOrEqual(0);
    expect(arcVerdict(arc)).toBeNull();
  });
});
