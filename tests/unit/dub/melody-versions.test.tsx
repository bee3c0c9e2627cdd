import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { resetLineStates } from '../../../src/app/stores/uploads/line-state';
import type { MelodyVersion } from '../../../src/api/contract';
import { type FakeSource, installFakeAudio } from '../fixtures/fake-audio-context';
import { speechScore } from '../fixtures/speech-score';
import { dubLine, renderDubRow } from './row-fixture';

const line = dubLine({ id: 'melody-1', referenceAudio: '/media/films/f/lines/1.wav' });
const MELODY_URL = '/media/takes/u/r/t.melody.wav?exp=1&sig=s';

function scoreWith(melody: MelodyVersion) {
  return JSON.stringify(
    speechScore({
      subtitlesId: line.id,
      melody,
      contours: {
        t: [0, 0.1, 0.2],
        learnerPitch: [0, 2, null],
        actorPitch: [0, 3, 1],
        learnerLoudness: [-30, -20, -25],
        actorLoudness: [-28, -18, -26],
        melodyPitch: [0, 2.9, 1.1],
      },
    }),
  );
}

function openDetail() {
  renderDubRow(line);
  fireEvent.click(screen.getByTestId(`details-${line.id}`));
  return screen.getByTestId('melody-versions');
}

describe('a scored line three ways: the actor, the take, the take with the actor’s melody', () => {
  let audio: { sources: FakeSource[]; fetched: string[] };
  beforeAll(() => {
    audio = installFakeAudio();
  });
  afterAll(() => vi.unstubAllGlobals());
  beforeEach(() => {
    resetLineStates();
    clearScores();
  });
  afterEach(() => setLang('zh'));

  it('offers three buttons in Chinese and in English', async () => {
    recordAttempt(line.id, scoreWith({ status: 'ready', url: MELODY_URL }), 'blob:take-1');
    const group = openDetail();
    expect(within(group).getByText('三个版本听一听')).toBeInTheDocument();
    const zh = within(group)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(zh).toEqual(['演员原声', '你的录音', '你的声音 · 演员的语调']);
    await act(() => setLang('en'));
    const en = within(screen.getByTestId('melody-versions'))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(en).toEqual(['The actor', 'Your take', "Your voice with the actor's melody"]);
    expect(screen.queryByTestId('melody-unavailable')).not.toBeInTheDocument();
  });

  it('plays the version pressed, from its own URL, and a press on another stops the first', async () => {
    recordAttempt(line.id, scoreWith({ status: 'ready', url: MELODY_URL }), 'blob:take-2');
    openDetail();
    const melody = screen.getByTestId('melody-play-melody');
    const before = audio.sources.length;
    fireEvent.click(melody);
    await waitFor(() => expect(audio.sources.slice(before).some((s) => s.started)).toBe(true));
    const melodySource = audio.sources.at(-1) as FakeSource;
    // The server's signed path, reached under /producer like every media URL.
    expect(melodySource.buffer).toEqual({ from: `/producer${MELODY_URL}` });
    expect(melody).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByTestId('melody-play-actor'));
    await waitFor(() =>
      expect(audio.sources.at(-1)?.buffer).toEqual({ from: '/producer/media/films/f/lines/1.wav' }),
    );
    expect(melodySource.stopped).toBe(true);
    expect(melody).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('melody-play-actor')).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByTestId('melody-play-take'));
    await waitFor(() => expect(audio.sources.at(-1)?.buffer).toEqual({ from: 'blob:take-2' }));
    // The clip ends by itself: its button is released.
    act(() => audio.sources.at(-1)?.onended?.());
    expect(screen.getByTestId('melody-play-take')).toHaveAttribute('aria-pressed', 'false');
  });

  it('says why instead of a third button when the take has too little voiced speech', async () => {
    recordAttempt(
      line.id,
      scoreWith({ status: 'unavailable', reason: 'take_too_little_voiced' }),
      'blob:take-3',
    );
    const group = openDetail();
    expect(within(group).getByTestId('melody-unavailable')).toHaveTextContent('这句话有声部分太少，无法合成');
    expect(within(group).queryByTestId('melody-play-melody')).not.toBeInTheDocument();
    expect(within(group).getAllByRole('button')).toHaveLength(2);
    await act(() => setLang('en'));
    expect(screen.getByTestId('melody-unavailable')).toHaveTextContent(
      'Not enough voiced speech to resynthesise',
    );
  });
});
