import { render, screen, within } from '@testing-library/react';
import { beforeAll, expect, test } from 'vitest';
import type { ReportLine } from '../../../src/api/contract';
import { loadMessages, type MessageKey, t } from '../../../src/app/i18n';
import { ReportLines } from '../../../src/app/screens/report/report-lines';

beforeAll(() => loadMessages('later', 'zh'));

const attempt = (speechDetected: boolean) => ({
  overall: speechDetected ? 64 : 0,
  scores: { emotion: 0, intonation: 0, energy: 0, timing: 0, quality: 0 },
  detected: 'neutral' as const,
  clear: false,
  speechDetected,
  arousal: 0,
  valence: 0,
  audioUrl: '/media/takes/u/t.wav',
  createdAt: '2026-11-21T00:00:00.000Z',
});

const line = (n: number, speech: boolean): ReportLine => ({
  subtitlesId: `l${n}`,
  index: n,
  text: `line ${n}`,
  translation: { zh: '', en: '' },
  speaker: 'A',
  targetEmotion: 'anger',
  actor: null,
  first: attempt(speech),
  second: null,
});

test('a report row whose take held no speech asks for a retake instead of "no clear emotion heard"', () => {
  const tr = (key: MessageKey, vars?: Record<string, string | number>) => t(key, vars, 'zh');
  render(<ReportLines lines={[line(1, false), line(2, true)]} t={tr} lang="zh" />);
  const [silent, spoken] = screen.getAllByRole('row').slice(1);
  expect(silent).toHaveTextContent('没有听到说话，请重录');
  expect(silent).not.toHaveTextContent('听不出明显的情绪');
  expect(spoken).toHaveTextContent('听不出明显的情绪');
  expect(within(spoken).queryByText('没有听到说话，请重录')).toBeNull();
});
