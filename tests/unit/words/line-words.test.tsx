import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckedWord, WordCheck } from '../../../src/api/contract';
import { LineWords } from '../../../src/app/ui/line-words';
import type { Lang } from '../../../src/i18n';
import { type FakeSource, installFakeAudio } from '../fixtures/fake-audio-context';

const TEXT = ['She', 'hands', 'it', 'in', 'on', 'Wednesday'];
const TAKE_URL = '/producer/media/takes/u/r/t.wav?exp=1&sig=s';
const ACTOR_URL = '/producer/media/films/f/lines/3.wav';

const w = (text: string, state: CheckedWord['state'], i: number): CheckedWord =>
  state === 'missed'
    ? { text, state, start: null, end: null }
    : { text, state, start: 0.5 + i * 0.4, end: 0.8 + i * 0.4 };

function checked(states: Array<CheckedWord['state']>, otherLine = false): WordCheck {
  const words = TEXT.map((t, i) => w(t, states[i], i));
  const heard = words.filter((x) => x.state !== 'missed').length;
  return {
    status: 'checked',
    language: 'en',
    words,
    completeness: heard / words.length,
    otherLine,
    pronunciation: null,
    score: Math.round((100 * heard) / words.length),
  };
}

/** The actor said every word, each 0.1 s later than the take. */
const actor = (): WordCheck => {
  const words = TEXT.map((t, i) => ({
    text: t,
    state: 'said' as const,
    start: 0.6 + i * 0.4,
    end: 0.9 + i * 0.4,
  }));
  return {
    status: 'checked',
    language: 'en',
    words,
    completeness: 1,
    otherLine: false,
    pronunciation: null,
    score: 100,
  };
};

const ALL_SAID = TEXT.map(() => 'said' as const);
const LAST_MISSED: Array<CheckedWord['state']> = ['said', 'said', 'said', 'said', 'said', 'missed'];

function show(check: WordCheck | null | undefined, lang: Lang, actorCheck: WordCheck | null = actor()) {
  return render(
    <LineWords check={check} actor={actorCheck} takeUrl={TAKE_URL} actorUrl={ACTOR_URL} lang={lang} />,
  );
}
const summary = () => screen.getByTestId('line-words-summary').textContent;

describe('the line, word by word, and one plain sentence on its words', () => {
  let audio: { sources: FakeSource[]; fetched: string[] };
  beforeAll(() => {
    audio = installFakeAudio();
  });
  afterAll(() => vi.unstubAllGlobals());

  it('a missed word is struck through with screen-reader text, and the summary names it (zh, en)', () => {
    show(checked(LAST_MISSED), 'zh');
    expect(summary()).toBe('说出了 5/6 个词，漏了：Wednesday');
    expect(screen.getByTestId('line-words-score').textContent).toBe('台词 83');
    const missed = screen.getByTestId('line-words').querySelector('[data-state="missed"]')!;
    expect(missed.textContent).toBe('Wednesday（漏说）');
    expect(missed.tagName).toBe('S');
    expect(missed).toHaveAttribute('data-state', 'missed');
    expect(within(missed as HTMLElement).getByText('（漏说）')).toHaveClass('visually-hidden');
    // A missed word cannot be played: it is not a button.
    expect(screen.queryByRole('button', { name: /Wednesday/ })).toBeNull();
    cleanup();

    show(checked(LAST_MISSED), 'en');
    expect(summary()).toBe('You said 5 of 6 words; missed: Wednesday');
    // The words' sub-score beside it, under its one name.
    expect(screen.getByTestId('line-words-score').textContent).toBe('Words 83');
    const missedEn = screen.getByTestId('line-words').querySelector('[data-state="missed"]')!;
    expect(within(missedEn as HTMLElement).getByText('(missed)')).toHaveClass('visually-hidden');
  });

  it('every word said: plain words and a summary that says so', () => {
    show(checked(ALL_SAID), 'en');
    expect(summary()).toBe('You said all 6 words');
    const words = screen.getAllByRole('button');
    expect(words.map((b) => b.textContent)).toEqual(TEXT);
    for (const b of words) expect(b).toHaveAttribute('data-state', 'said');
    cleanup();
    show(checked(ALL_SAID), 'zh');
    expect(summary()).toBe('6 个词都说出来了');
  });

  it('a word heard but clearly off is marked and named as not clear yet', () => {
    show(checked(['said', 'off', 'said', 'said', 'said', 'missed']), 'en');
    expect(summary()).toBe('You said 5 of 6 words; missed: Wednesday; not clear yet: hands');
    const off = screen.getByRole('button', { name: 'Hear the actor, then you: hands' });
    expect(off).toHaveAttribute('data-state', 'off');
    expect(within(off).getByText('(not clear yet)')).toHaveClass('visually-hidden');
    cleanup();
    show(checked(['said', 'off', 'said', 'said', 'said', 'missed']), 'zh');
    expect(summary()).toBe('说出了 5/6 个词，漏了：Wednesday；没说清楚的词：hands');
  });

  it('every word heard but none clearly: the summary says so, the reason such a take cannot pass (zh, en)', () => {
    const allOff = TEXT.map(() => 'off' as const);
    show(checked(allOff), 'en');
    expect(summary()).toBe('None of the 6 words came through clearly yet — say each one as written');
    // Each word is still marked and can be played against the actor's.
    for (const b of screen.getAllByRole('button')) expect(b).toHaveAttribute('data-state', 'off');
    cleanup();
    show(checked(allOff), 'zh');
    expect(summary()).toBe('6 个词都还没说清楚，请照着台词一个一个说清楚');
  });

  it('another line: the learner is told to say the line as written (zh, en)', () => {
    show(checked(['missed', 'missed', 'missed', 'missed', 'missed', 'missed'], true), 'zh');
    expect(summary()).toBe('没有听出这句台词，请照着台词说');
    expect(screen.getByTestId('line-words')).toHaveAttribute('data-verdict', 'otherLine');
    cleanup();
    show(checked(['missed', 'missed', 'missed', 'missed', 'missed', 'missed'], true), 'en');
    expect(summary()).toBe("We couldn't hear this line in your take — say it as written");
  });

  it('not checked: says why in plain words, marks no word', () => {
    const cases: Array<[WordCheck, string, string]> = [
      [
        { status: 'unchecked', reason: 'language', language: 'de' },
        '德语台词暂不检查词句，只评语气',
        "Words aren't checked for German lines — only your delivery is scored",
      ],
      [
        { status: 'unchecked', reason: 'language', language: null },
        '这部影片没有注明台词的语言，暂不检查词句，只评语气',
        "This film doesn't say which language its lines are in, so words aren't checked — only your delivery is scored",
      ],
      [
        { status: 'unchecked', reason: 'engine_missing', language: 'en' },
        '这台设备还没装好英语词句检查，只评语气',
        "English word checking isn't set up on this device yet — only your delivery is scored",
      ],
      [
        { status: 'unchecked', reason: 'engine_failed', language: 'zh' },
        '这次没能检查词句，本句只评语气',
        "Your words couldn't be checked this time — only your delivery is scored",
      ],
    ];
    for (const [check, zh, en] of cases) {
      for (const [lang, text] of [
        ['zh', zh],
        ['en', en],
      ] as const) {
        show(check, lang);
        expect(summary()).toBe(text);
        expect(screen.getByTestId('line-words')).toHaveAttribute('data-verdict', 'notChecked');
        expect(screen.queryAllByRole('button')).toHaveLength(0);
        expect(screen.queryByTestId('line-words-score')).toBeNull();
        cleanup();
      }
    }
  });

  it('shows nothing for a take scored before words were checked', () => {
    show(undefined, 'zh');
    expect(screen.queryByTestId('line-words')).toBeNull();
  });

  it("tapping a said word plays the actor's word, then the learner's, each cut by its own times", async () => {
    show(checked(LAST_MISSED), 'en');
    const before = audio.sources.length;
    fireEvent.click(screen.getByRole('button', { name: 'Hear the actor, then you: on' }));
    await waitFor(() => expect(audio.sources.length).toBe(before + 2));
    const [first, second] = audio.sources.slice(before);
    expect(first.buffer?.from).toBe(ACTOR_URL);
    expect(second.buffer?.from).toBe(TAKE_URL);
    // Word 5 ("on", index 4): the actor at 2.2–2.5 s, the take at 2.1–2.4 s; the take after the actor.
    const [actorAt, actorOffset, actorDuration] = first.startArgs;
    const [takeAt, takeOffset, takeDuration] = second.startArgs;
    expect(actorOffset).toBeCloseTo(2.2);
    expect(actorDuration).toBeCloseTo(0.3);
    expect(takeOffset).toBeCloseTo(2.1);
    expect(takeDuration).toBeCloseTo(0.3);
    expect(takeAt).toBeGreaterThanOrEqual(actorAt + actorDuration);
  });

  it("without the actor's words a word is marked but cannot be played", () => {
    show(checked(LAST_MISSED), 'en', null);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText('She')).toHaveAttribute('data-state', 'said');
  });
});
