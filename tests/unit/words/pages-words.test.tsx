import { render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { ReportLine, WordCheck } from '../../../src/api/contract';
import { type MessageKey, t } from '../../../src/app/i18n';
import { ReportLines } from '../../../src/app/screens/report/report-lines';
import { SuggestWords } from '../../../src/app/screens/sound-suggest/suggest-words';

const otherLine: WordCheck = {
  status: 'checked',
  language: 'en',
  words: ['on', 'Wednesday'].map((text) => ({ text, state: 'missed' as const, start: null, end: null })),
  completeness: 0,
  otherLine: true,
  pronunciation: null,
  score: 0,
};
const allSaid: WordCheck = {
  ...otherLine,
  words: [
    { text: 'on', state: 'said', start: 0.1, end: 0.3 },
    { text: 'Wednesday', state: 'said', start: 0.3, end: 0.9 },
  ],
  completeness: 1,
  otherLine: false,
  score: 95,
};

const attempt = (words: WordCheck) => ({
  overall: 30,
  scores: { emotion: 50, intonation: 50, energy: 50, timing: 50, quality: 90 },
  detected: 'neutral' as const,
  clear: false,
  speechDetected: true,
  arousal: 0,
  valence: 0,
  audioUrl: '/media/takes/u/t.wav?exp=1&sig=s',
  words,
  actorWords: allSaid,
  createdAt: '2026-11-21T00:00:00.000Z',
});

const line: ReportLine = {
  subtitlesId: 'l1',
  index: 1,
  text: 'On Wednesday.',
  translation: { zh: '星期三。', en: '' },
  speaker: 'A',
  targetEmotion: null,
  actor: null,
  first: attempt(allSaid),
  second: attempt(otherLine),
  referenceAudio: '/media/films/f/lines/1.wav',
};

test("the report's row shows the latest take's words: another line, told plainly", () => {
  const tr = (key: MessageKey, vars?: Record<string, string | number>) => t(key, vars, 'zh');
  render(<ReportLines lines={[line]} t={tr} lang="zh" />);
  const row = screen.getAllByRole('row')[1];
  expect(within(row).getByTestId('line-words-summary').textContent).toBe('没有听出这句台词，请照着台词说');
  expect(within(row).getByTestId('line-words-score').textContent).toBe('台词 0');
});

test('the sound suggestion lists the lines whose words need another go, each marked, in English', () => {
  render(
    <SuggestWords
      lines={[
        { subtitlesId: 'l1', index: 1, words: otherLine, actorWords: allSaid, audioUrl: '/media/t.wav' },
      ]}
      lang="en"
    />,
  );
  const list = screen.getByTestId('suggest-words');
  expect(screen.getByRole('heading', { name: 'Lines whose words need another go' })).toBeInTheDocument();
  expect(within(list).getByRole('listitem', { name: 'Line 1' })).toBeInTheDocument();
  expect(within(list).getByTestId('line-words-summary').textContent).toBe(
    "We couldn't hear this line in your take — say it as written",
  );
});

test('the sound suggestion shows nothing when no line needs its words again', () => {
  render(<SuggestWords lines={[]} lang="en" />);
  expect(screen.queryByTestId('suggest-words')).toBeNull();
});
