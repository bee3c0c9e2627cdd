import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunSummary } from '../../../src/api/contract';
import { loadMessages, setLang, t } from '../../../src/app/i18n';
import { RunHistory } from '../../../src/app/screens/report/run-history';

const run = (runId: string, updatedAt: string, answerPercent: number): RunSummary =>
  ({
    runId,
    part: 'prpo',
    filmId: 'film-1',
    filmTitle: '奶奶的房子',
    filmTitleEn: "Grandma's Flat",
    startedAt: updatedAt,
    updatedAt,
    answered: true,
    answerPercent,
    dubbedLines: 0,
    totalLines: 0,
    dubbingAverage: null,
  }) as RunSummary;

beforeAll(async () => {
  await loadMessages('later', 'en');
  await setLang('en');
});

describe('part one history', () => {
  test('its progress curve is described by the answer score alone, with no dubbing average', async () => {
    render(
      <MemoryRouter>
        <RunHistory
          part="prpo"
          runs={[run('r1', '2026-11-20T10:00:00Z', 50), run('r2', '2026-11-21T10:00:00Z', 75)]}
          current="r2"
          t={t}
          lang="en"
        />
      </MemoryRouter>,
    );
    const card = await screen.findByTestId('run-history');
    expect(await screen.findByText(/Answer score of your last 2 trainings/)).toBeInTheDocument();
    expect(card.textContent).not.toMatch(/dubbing average/i);
  });
});
