import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { lang, setLang } from '../../../src/app/i18n';
import { IntroScreen } from '../../../src/app/screens/intro/intro-screen';
import { MoviesScreen } from '../../../src/app/screens/movies/movies-screen';
import { prpt } from '../../../src/app/stores/films';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { film } from './fixtures';
import { renderScreen } from './render-screen';

const server = fixtureServerForFile();
let release: (() => void) | null = null;
beforeEach(() => setLang('zh'));
afterEach(() => {
  release?.();
  release = null;
  server.reset();
  prpt.reset();
  setLang('zh');
});

/** Answers the film list only when the test says so, so the loading state can be seen. */
function filmList(list: unknown[]) {
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.handle((_req, res) => {
    void gate.then(() =>
      json(res, { code: 200, msg: 'ok', data: { list, total: list.length, page: 1, pageSize: 100 } }),
    );
  });
}

describe('movies screen', () => {
  test('shows a loading state, then one poster card per film with duration, parts and progress in words', async () => {
    filmList([film]);
    renderScreen(<MoviesScreen part="prpt" />, '/prpt/movies');
    expect(screen.getByRole('status')).toHaveTextContent('正在加载影片…');
    await act(async () => release?.());
    const card = await screen.findByRole('link', { name: /奶奶的房子/ });
    expect(card).toHaveAttribute('href', '/prpt/cinema/film-1');
    expect(card).toHaveTextContent('0:21');
    expect(card).toHaveTextContent('时长 0 分 21 秒');
    expect(card).toHaveTextContent('观影理解');
    expect(card).toHaveTextContent('影视配音');
    expect(card).toHaveTextContent('已配音 1/2 句');
    // Progress is what the words say: no unlabelled percentage beside them.
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(card.textContent).not.toMatch(/\d+%/);
    expect(prpt.movies.value).toHaveLength(1);
  });

  test('in English the film card leads with the English title, the Chinese one second', async () => {
    await act(() => setLang('en'));
    filmList([film]);
    renderScreen(<MoviesScreen part="prpt" />, '/prpt/movies');
    await act(async () => release?.());
    const card = await screen.findByRole('link', { name: new RegExp(film.titleEn) });
    const text = card.textContent ?? '';
    expect(text.indexOf(film.titleEn)).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(film.titleEn)).toBeLessThan(text.indexOf(film.title));
  });

  test('an empty shelf says so and offers a reload', async () => {
    filmList([]);
    renderScreen(<MoviesScreen part="prpt" />, '/prpt/movies');
    await act(async () => release?.());
    expect(await screen.findByRole('heading', { name: '暂时还没有影片' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重新加载' })).toBeInTheDocument();
  });
});

describe('language switch', () => {
  test('switching to English re-renders the screen and remembers the choice', async () => {
    const u = userEvent.setup();
    renderScreen(<IntroScreen part="prpt" />, '/prpt/intro');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('影视配音');
    expect(screen.getByRole('list', { name: '训练步骤' }).children).toHaveLength(6);
    const { LanguageToggle } = await import('../../../src/app/ui/language-toggle');
    renderScreen(<LanguageToggle />, '/');
    await u.click(screen.getByRole('button', { name: 'English' }));
    expect(lang.value).toBe('en');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Film dubbing');
    expect(screen.getByRole('list', { name: 'Training steps' })).toHaveTextContent('Voice tips');
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('app.lang')).toBe('en');
  });
});

describe('home screens link the two parts', () => {
  test('each home links to the other part; film titles follow the language', async () => {
    const { HomeScreen } = await import('../../../src/app/screens/home/home-screen');
    const { writeToken } = await import('../../../src/api/token');
    const { syncToken } = await import('../../../src/app/stores/account');
    writeToken('tok-home');
    syncToken();
    const touched = { ...film, progress: { ...film.progress, runId: 'run-3' } };
    server.handle((_req, res) =>
      json(res, { code: 200, msg: 'ok', data: { list: [touched], total: 1, page: 1, pageSize: 100 } }),
    );
    const one = renderScreen(<HomeScreen part="prpt" />, '/prpt');
    expect(await screen.findByRole('link', { name: /去第一部分：观影理解/ })).toHaveAttribute(
      'href',
      '/prpo',
    );
    // The latest run's report, with the history of every run.
    expect(await screen.findByRole('link', { name: '报告与训练记录' })).toHaveAttribute(
      'href',
      '/prpt/report?runId=run-3',
    );
    expect(await screen.findByText(film.title)).toBeInTheDocument();
    await act(() => setLang('en'));
    expect(await screen.findByText(film.titleEn)).toBeInTheDocument();
    one.unmount();
    renderScreen(<HomeScreen part="prpo" />, '/prpo');
    expect(await screen.findByRole('link', { name: /Go to Part two: Film dubbing/ })).toHaveAttribute(
      'href',
      '/prpt',
    );
    expect(await screen.findByRole('link', { name: 'Report and history' })).toHaveAttribute(
      'href',
      '/prpo/report/run-3?by=run',
    );
  });
});
