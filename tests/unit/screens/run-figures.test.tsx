import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, test } from 'vitest';
import type { LineAttemptSummary, Report, SoundSuggestData } from '../../../src/api/contract';
import { loadMessages, setLang, t } from '../../../src/app/i18n';
import { ReportView } from '../../../src/app/screens/report/report-view';
import { figureValue } from '../../../src/app/screens/sound-suggest/sound-suggest-screen';
import { aggregateRun } from '../../../src/audio/scoring/aggregate';
import { prptReport } from './fixtures';

// The client pages show the run's figures exactly as the one rule computes them
// (src/audio/scoring/aggregate.ts; the server side: tests/server/run-figures.test.ts): the report's
// figures and rows, and the voice tips' figure chips, for a run with a retake and a silent take.
const summary = (overall: number, speechDetected = true): LineAttemptSummary => ({
  overall,
  scores: { emotion: overall, intonation: overall, energy: overall, timing: overall, quality: 90 },
  detected: 'neutral',
  clear: true,
  speechDetected,
  arousal: 0.2,
  valence: 0,
  audioUrl: '/media/takes/t.wav',
  createdAt: '2026-11-21T10:05:00Z',
});
const asTake = (a: LineAttemptSummary | null) =>
  a && {
    overall: a.overall,
    scores: a.scores,
    speechDetected: a.speechDetected,
    target: 'neutral',
    named: a.clear,
  };

const base = prptReport.dubbing!.lines[0];
const lines = [
  { ...base, subtitlesId: 'a', index: 1, first: summary(40), second: summary(50) },
  { ...base, subtitlesId: 'b', index: 2, first: summary(80), second: null },
  { ...base, subtitlesId: 'c', index: 3, first: summary(0, false), second: null },
];
const agg = aggregateRun(
  lines.map((l) => ({ subtitlesId: l.subtitlesId, first: asTake(l.first), second: asTake(l.second) })),
);

beforeAll(async () => {
  await loadMessages('later', 'zh');
  await setLang('zh');
});

describe('one run, the same figures on the client pages', () => {
  test('the rule: 3 dubbed, 2 scored, 1 silent, average 65, +10, match 50 %, emotion average 65', () => {
    expect(agg).toMatchObject({
      dubbedLines: 3,
      scoredLines: 2,
      silentLines: 1,
      average: 65,
      improvement: 10,
      emotionMatchRate: 0.5,
      emotionAverage: 65,
    });
  });

  test('the report shows them, and the silent line as no speech rather than 0', () => {
    const report: Report = {
      ...prptReport,
      dubbing: {
        lines,
        scoredLines: agg.scoredLines,
        dubbedLines: agg.dubbedLines,
        silentLines: agg.silentLines,
        average: agg.average,
        improvement: agg.improvement,
        emotionMatchRate: agg.emotionMatchRate,
        emotionAverage: agg.emotionAverage,
      },
    };
    render(
      <MemoryRouter>
        <ReportView part="prpt" report={report} h5Url="" h5Pending={false} />
      </MemoryRouter>,
    );
    const kpi = (label: string) => screen.getAllByText(label)[0].closest('div')?.textContent ?? '';
    expect(kpi(t('report.dubAverage'))).toContain('65');
    expect(kpi(t('report.improvement'))).toContain('+10.0');
    expect(kpi(t('report.emotionMatch'))).toContain('50%');
    expect(kpi(t('report.emotionAverage'))).toContain('65');
    expect(screen.getByTestId('report-scored-lines')).toHaveTextContent('已评分 2/3 句');
    expect(screen.getByTestId('report-silent-lines')).toHaveTextContent('1 句没有听到说话声，请重录');
    const rows = within(screen.getByRole('table'))
      .getAllByRole('row')
      .filter((r) => within(r).queryByRole('rowheader'));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toHaveTextContent('没有听到说话');
    expect(rows[2]).not.toHaveTextContent(/\b0\b/);
  });

  test('the voice tips show the same figures', () => {
    const figures: SoundSuggestData['figures'] = {
      scoredLines: agg.scoredLines,
      dubbedLines: agg.dubbedLines,
      silentLines: agg.silentLines,
      totalLines: agg.totalLines,
      average: agg.average,
      improvement: agg.improvement,
      emotionMatchRate: agg.emotionMatchRate,
      emotionAverage: agg.emotionAverage,
      pitchRangeSemitones: null,
      syllablesPerSecond: null,
      loudnessRangeDb: null,
    };
    expect(figureValue('dubbedLines', figures, t)).toBe('3/3');
    expect(figureValue('scoredLines', figures, t)).toBe('2/3');
    expect(figureValue('silentLines', figures, t)).toBe('1');
    expect(figureValue('average', figures, t)).toBe('65');
    expect(figureValue('improvement', figures, t)).toBe('+10.0');
    expect(figureValue('emotionMatchRate', figures, t)).toBe('50%');
    expect(figureValue('emotionAverage', figures, t)).toBe('65');
  });

  test('retakes that kept their scores read "no change", not 0.0 (report figure and voice tips)', () => {
    const kept = lines.map((l) =>
      l.subtitlesId === 'a' ? { ...l, first: summary(50), second: summary(50) } : l,
    );
    const same = aggregateRun(
      kept.map((l) => ({ subtitlesId: l.subtitlesId, first: asTake(l.first), second: asTake(l.second) })),
    );
    expect(same.improvement).toBe(0);
    const report: Report = {
      ...prptReport,
      dubbing: { ...prptReport.dubbing!, lines: kept, improvement: same.improvement },
    };
    render(
      <MemoryRouter>
        <ReportView part="prpt" report={report} h5Url="" h5Pending={false} />
      </MemoryRouter>,
    );
    const kpi = screen.getAllByText(t('report.improvement'))[0].closest('div')?.textContent ?? '';
    expect(kpi).toContain('没有变化');
    expect(kpi).not.toContain('0.0');
    const figures = { improvement: same.improvement } as SoundSuggestData['figures'];
    expect(figureValue('improvement', figures, t)).toBe('没有变化');
  });
});
