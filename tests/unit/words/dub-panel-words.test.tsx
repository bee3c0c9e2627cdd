import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WordCheck } from '../../../src/api/contract';
import { setLang } from '../../../src/app/i18n';
import { clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { resetLineStates } from '../../../src/app/stores/uploads/line-state';
import { dubLine, renderDubRow } from '../dub/row-fixture';
import { speechScore } from '../fixtures/speech-score';

const line = dubLine({ id: 'words-1', text: 'She hands it in on Wednesday.' });

const words: WordCheck = {
  status: 'checked',
  language: 'en',
  words: ['She', 'hands', 'it', 'in', 'on', 'Wednesday'].map((text, i) =>
    i < 5
      ? { text, state: 'said', start: i * 0.3, end: i * 0.3 + 0.25 }
      : { text, state: 'missed', start: null, end: null },
  ),
  completeness: 5 / 6,
  otherLine: false,
  pronunciation: null,
  score: 83,
};

/** The dub page's line panel shows the latest take's words with the shared component. */
describe("the dub page's line panel and the take's words", () => {
  beforeEach(() => {
    resetLineStates();
    clearScores();
  });
  afterEach(() => setLang('zh'));

  it('shows the latest take marked word by word, with its summary in the learner language', async () => {
    recordAttempt(line.id, JSON.stringify(speechScore({ subtitlesId: line.id, words })), 'blob:take-1');
    renderDubRow(line);
    fireEvent.click(screen.getByTestId(`details-${line.id}`));
    const panel = within(screen.getByTestId('line-score-detail'));
    expect(panel.getByTestId('line-words-summary').textContent).toBe('说出了 5/6 个词，漏了：Wednesday');
    expect(panel.getByTestId('line-words').querySelector('s[data-state="missed"]')?.textContent).toBe(
      'Wednesday（漏说）',
    );
    await act(() => setLang('en'));
    expect(screen.getByTestId('line-words-summary').textContent).toBe(
      'You said 5 of 6 words; missed: Wednesday',
    );
  });

  it('a German take says its words were not checked', () => {
    recordAttempt(
      line.id,
      JSON.stringify(
        speechScore({
          subtitlesId: line.id,
          words: { status: 'unchecked', reason: 'language', language: 'de' },
        }),
      ),
      'blob:take-1',
    );
    renderDubRow(line);
    fireEvent.click(screen.getByTestId(`details-${line.id}`));
    expect(screen.getByTestId('line-words-summary').textContent).toBe('德语台词暂不检查词句，只评语气');
  });
});
