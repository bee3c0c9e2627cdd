import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LineAttemptSummary, MelodyVersion, ReportLine } from '../../../src/api/contract';
import { type Lang, type MessageKey, t } from '../../../src/app/i18n';
import { ReportLines } from '../../../src/app/screens/report/report-lines';
import { type FakeSource, installFakeAudio } from '../fixtures/fake-audio-context';

const attempt = (overall: number, melody?: MelodyVersion): LineAttemptSummary => ({
  overall,
  scores: { emotion: 0, intonation: 0, energy: 0, timing: 0, quality: 0 },
  detected: 'neutral',
  clear: false,
  speechDetected: true,
  arousal: 0,
  valence: 0,
  audioUrl: `/media/takes/u/r/take-${overall}.wav?exp=1&sig=a`,
  ...(melody ? { melody } : {}),
  createdAt: '2026-11-21T00:00:00.000Z',
});

const line = (melody: MelodyVersion): ReportLine => ({
  subtitlesId: 'l1',
  index: 1,
  text: 'Der Lappen liegt auf dem Eisschrank.',
  translation: { zh: '', en: '' },
  speaker: 'A',
  targetEmotion: null,
  actor: null,
  first: attempt(50),
  second: attempt(70, melody),
  referenceAudio: '/media/films/f/lines/1.wav',
  contours: {
    t: [0, 0.1, 0.2],
    learnerPitch: [0, 2, null],
    actorPitch: [0, 3, 1],
    learnerLoudness: [-30, -20, -25],
    actorLoudness: [-28, -18, -26],
    melodyPitch: [0, 2.9, 1.1],
  },
});

/** Renders the report's lines in a language and opens the line (its disclosure). */
function openLine(l: ReportLine, lang: Lang) {
  const tr = (key: MessageKey, vars?: Record<string, string | number>) => t(key, vars, lang);
  render(<ReportLines lines={[l]} t={tr} lang={lang} />);
  const details = screen.getByTestId('report-line-detail-l1') as HTMLDetailsElement;
  act(() => {
    details.open = true;
    fireEvent(details, new Event('toggle'));
  });
  return within(details);
}

describe("the report's line three ways", () => {
  let audio: { sources: FakeSource[] };
  beforeAll(() => {
    audio = installFakeAudio();
  });
  afterAll(() => vi.unstubAllGlobals());

  it.each([
    ['zh', ['演员原声', '你的录音', '你的声音 · 演员的语调']],
    ['en', ['The actor', 'Your take', "Your voice with the actor's melody"]],
  ] as const)(
    '%s: the actor, the latest take and its melody version, each its own clip',
    async (lang, labels) => {
      const view = openLine(
        line({ status: 'ready', url: '/media/takes/u/r/take-70.melody.wav?exp=1&sig=m' }),
        lang,
      );
      const buttons = view.getAllByRole('button');
      expect(buttons.map((b) => b.textContent)).toEqual(labels);
      const played: unknown[] = [];
      for (const b of buttons) {
        const before = audio.sources.length;
        fireEvent.click(b);
        await vi.waitFor(() => expect(audio.sources.slice(before).some((s) => s.started)).toBe(true));
        played.push(audio.sources.at(-1)?.buffer);
      }
      expect(played).toEqual([
        { from: '/producer/media/films/f/lines/1.wav' },
        { from: '/producer/media/takes/u/r/take-70.wav?exp=1&sig=a' },
        { from: '/producer/media/takes/u/r/take-70.melody.wav?exp=1&sig=m' },
      ]);
    },
  );

  it.each([
    ['zh', '这句话有声部分太少，无法合成'],
    ['en', 'Not enough voiced speech to resynthesise'],
  ] as const)('%s: a take too little voiced says so in place of the third button', (lang, message) => {
    const view = openLine(line({ status: 'unavailable', reason: 'take_too_little_voiced' }), lang);
    expect(view.getByTestId('melody-unavailable')).toHaveTextContent(message);
    expect(view.getAllByRole('button')).toHaveLength(2);
  });
});
