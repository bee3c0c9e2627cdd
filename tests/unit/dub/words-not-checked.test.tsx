import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { WordsNotChecked } from '../../../src/app/features/dub/words-not-checked';
import { setLang } from '../../../src/app/i18n';

afterEach(() => setLang('zh'));

describe('the dub page says before a first take when the words will not be checked', () => {
  test.each([
    [
      { reason: 'language', language: 'de' },
      '德语台词暂不检查词句，只评语气',
      "Words aren't checked for German lines — only your delivery is scored",
    ],
    [
      { reason: 'engine_missing', language: 'zh' },
      '这台设备还没装好中文词句检查，只评语气',
      "Mandarin word checking isn't set up on this device yet — only your delivery is scored",
    ],
  ] as const)('%o, in both languages, in the words a take then says', (notChecked, zh, en) => {
    setLang('zh');
    const { rerender } = render(<WordsNotChecked notChecked={notChecked} />);
    const note = screen.getByTestId('dub-words-not-checked');
    expect(note).toHaveTextContent(zh);
    expect(note).toHaveAttribute('data-reason', notChecked.reason);
    setLang('en');
    rerender(<WordsNotChecked notChecked={notChecked} />);
    expect(screen.getByTestId('dub-words-not-checked')).toHaveTextContent(en);
  });

  test('says nothing when the words will be checked', () => {
    const { container } = render(<WordsNotChecked notChecked={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
