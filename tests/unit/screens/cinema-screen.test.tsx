import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { captionTexts, lineAt } from '../../../src/app/screens/cinema/captions';
import { CinemaScreen } from '../../../src/app/screens/cinema/cinema-screen';
import { prpo } from '../../../src/app/stores/films';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { detail } from './fixtures';
import { renderScreen } from './render-screen';

const server = fixtureServerForFile();
beforeEach(() => {
  setLang('zh');
  server.handle((_req, res) => json(res, { code: 200, msg: 'ok', data: detail }));
});
afterEach(() => {
  server.reset();
  prpo.reset();
});

describe('caption helpers', () => {
  test('a line is on screen from its start until just before its end', () => {
    const lines = detail.subtitlesList;
    expect(lineAt(lines, 0.5)).toBeNull();
    expect(lineAt(lines, 1)?.id).toBe('s1');
    expect(lineAt(lines, 2.999)?.id).toBe('s1');
    expect(lineAt(lines, 3)?.id).toBe('s2');
    expect(lineAt(lines, 6)).toBeNull();
  });

  test('modes pick original, translation in the UI language, or both; a repeat of the original is dropped', () => {
    const line = detail.subtitlesList[0];
    expect(captionTexts(line, 'both', 'zh')).toEqual({
      original: line.text,
      translation: '抹布在冰箱上放着。',
    });
    expect(captionTexts(line, 'both', 'en')).toEqual({
      original: line.text,
      translation: 'The rag is on the fridge.',
    });
    expect(captionTexts(line, 'original', 'zh')).toEqual({ original: line.text, translation: null });
    expect(captionTexts(line, 'translation', 'zh')).toEqual({
      original: null,
      translation: '抹布在冰箱上放着。',
    });
    const same = { text: '你好', translation: { zh: '你好', en: 'Hello' } };
    expect(captionTexts(same, 'translation', 'zh')).toEqual({ original: '你好', translation: null });
  });
});

describe('cinema screen', () => {
  test('shows the film, its lines, synopsis and roles, and the way on to the questions', async () => {
    renderScreen(<CinemaScreen part="prpo" id="film-1" />, '/prpo/cinema/film-1', '/prpo/cinema/:id');
    expect(await screen.findByRole('heading', { level: 1, name: '奶奶的房子' })).toBeInTheDocument();
    expect(screen.getByLabelText('影片：奶奶的房子')).toHaveAttribute(
      'src',
      '/producer/media/film-1/clip.mp4',
    );
    expect(screen.getByText('姐弟俩在收拾奶奶的厨房。')).toBeInTheDocument();
    expect(screen.getByText('Eva')).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: '去答题' })) {
      expect(link).toHaveAttribute('href', '/prpo/answer/film-1');
    }
  });

  test('jumping to a line shows it in the caption layer; modes and the on/off switch change what is drawn', async () => {
    const u = userEvent.setup();
    renderScreen(<CinemaScreen part="prpo" id="film-1" />, '/prpo/cinema/film-1', '/prpo/cinema/:id');
    const lines = await screen.findByRole('region', { name: '台词' });
    await u.click(within(lines).getByRole('button', { name: /In sieben Stunden/ }));
    expect(within(lines).getByRole('button', { name: /In sieben Stunden/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    const layer = screen.getByTestId('caption-layer');
    expect(layer).toHaveTextContent('In sieben Stunden wird es soweit sein.');
    expect(layer).toHaveTextContent('再过七个小时就到时候了。');

    await u.click(screen.getByRole('radio', { name: '仅原文' }));
    expect(screen.getByTestId('caption-layer')).not.toHaveTextContent('再过七个小时就到时候了。');

    await u.click(screen.getByRole('button', { name: '字幕：开' }));
    expect(screen.queryByTestId('caption-layer')).toBeNull();
    expect(screen.getByRole('button', { name: '字幕：关' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('radio', { name: '仅原文' })).toBeNull();
  });
});
