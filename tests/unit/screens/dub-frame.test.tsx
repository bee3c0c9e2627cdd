import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunStateData, SpeechScore } from '../../../src/api/contract';
import { writeToken } from '../../../src/api/token';
import { prpt } from '../../../src/app/stores/films';
import { clearScores, subTitlesScores } from '../../../src/app/stores/takes/sub-titles-scores';
import { setLang } from '../../../src/app/i18n';
import { syncToken, userInfo } from '../../../src/app/stores/account';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { loadScreenModules, renderAppAt } from '../app/render-app';
import { speechScore } from '../fixtures/speech-score';
import { detail, saved } from './fixtures';

// The dub screen inside the shared frame (header with the learner, log out and the language switch;
// back link and steps), its words in the UI language, and the takes of the film's latest run.
const server = fixtureServerForFile();
beforeAll(async () => {
  await loadScreenModules();
});
beforeEach(() => {
  setLang('zh');
  writeToken('tok-1');
  syncToken();
  userInfo.value = { id: 'u1', account: 'learner', nickname: '小明', token: 'tok-1', expiresIn: 604800 };
});
afterEach(() => {
  server.reset();
  prpt.reset();
  clearScores();
  setLang('zh');
});

const score = (subtitlesId: string, overall: number): SpeechScore =>
  speechScore({
    takeId: `take-${subtitlesId}-${overall}`,
    subtitlesId,
    overall,
    scores: { emotion: overall, intonation: overall, energy: overall, timing: overall, quality: 90 },
    audioUrl: `/media/takes/u1/run-2/${subtitlesId}.wav`,
    createdAt: '2026-11-23T10:00:00Z',
  });

function serve(run: RunStateData) {
  server.handle((req, res) => {
    const p = req.url.pathname;
    if (p.endsWith('/get_film_info')) return json(res, { code: 200, msg: 'ok', data: detail });
    if (p.endsWith('/get_run')) return json(res, { code: 200, msg: 'ok', data: run });
    json(res, { code: 404, msg: 'no', data: null });
  });
}

const runOf = (runId: string, lines: RunStateData['lines']): RunStateData => ({
  run: {
    runId,
    part: 'prpt',
    filmId: 'film-1',
    filmTitle: detail.title,
    filmTitleEn: detail.titleEn,
    startedAt: '2026-11-23T09:00:00Z',
    updatedAt: '2026-11-23T10:00:00Z',
    answered: true,
    answerPercent: 67,
    dubbedLines: lines.length,
    totalLines: 2,
    dubbingAverage: null,
  },
  answers: null,
  lines,
});

const CJK = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/;

describe('dub screen in the frame', () => {
  test('zh: header tools, back link, steps, the cue with its translation; en: no Chinese text at all', async () => {
    serve(runOf('run-2', []));
    renderAppAt('/prpt/dub/film-1');
    expect(await screen.findByRole('heading', { level: 1, name: '配音' })).toBeInTheDocument();
    // The shared frame: learner, log out, language switch.
    expect(screen.getByText('小明')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '退出登录' })).toBeInTheDocument();
    // Not answered yet in this film's run: back leads to the film, not to a result.
    expect(screen.getByRole('link', { name: '回到影片' })).toHaveAttribute('href', '/prpt/cinema/film-1');
    expect(screen.getByText(detail.title)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: /步骤|steps/i })).toBeInTheDocument();
    // The cue: the next line large with its Chinese translation.
    const cue = screen.getByRole('region', { name: '要说的台词' });
    expect(cue).toHaveTextContent('下一句');
    expect(cue).toHaveTextContent(detail.subtitlesList[0].text);
    expect(cue).toHaveTextContent('抹布在冰箱上放着。');
    // Nothing scored yet: the voice tips are not the main action.
    expect(screen.getByTestId('dub-next').className).not.toMatch(/primary/);

    await act(() => setLang('en'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dub' })).toBeInTheDocument();
    expect(screen.getByText(detail.titleEn)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText('The rag is on the fridge.', { selector: 'li *' })).toBeInTheDocument(),
    );
    expect(
      within(screen.getByRole('region', { name: 'Line to say' })).getByText('The rag is on the fridge.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the film' })).toBeInTheDocument();
    // Apart from names (the learner's nickname; the language switch names Chinese in Chinese), no
    // Chinese: this film's speakers have Latin names.
    const text = (document.body.textContent ?? '').replaceAll('小明', '').replaceAll('中文', '');
    expect(
      text.match(CJK),
      `Chinese text in English: …${text.slice(Math.max(0, text.search(CJK) - 40), text.search(CJK) + 40)}…`,
    ).toBeNull();
  });

  test('a new browser session shows the takes of the latest run; a newer run replaces them', async () => {
    serve(runOf('run-2', [{ subtitlesId: 's1', first: score('s1', 43), second: null, takes: 1 }]));
    const first = renderAppAt('/prpt/dub/film-1');
    const row = await screen.findByTestId('line-s1');
    await waitFor(() => expect(row).toHaveAttribute('data-stage', 'scored'));
    expect(within(row).getByRole('img', { name: '第一次 43' })).toBeInTheDocument();
    expect(screen.getByTestId('line-s2')).toHaveAttribute('data-stage', 'idle');
    // A scored line leaves the scene take the page's one main action: the voice tips stay secondary,
    // so a phone's first orange button is "Dub the scene".
    expect(screen.getByTestId('dub-next')).toHaveAttribute('data-variant', 'secondary');
    expect(
      [...document.querySelectorAll('[data-screen="dub"] [data-variant="primary"]')].map(
        (e) => e.textContent,
      ),
    ).toEqual(['整段配音']);
    first.view.unmount();

    // The learner answered again elsewhere: run 3 has no takes yet, so the screen starts clean.
    server.reset();
    serve(runOf('run-3', []));
    renderAppAt('/prpt/dub/film-1');
    await waitFor(() => expect(subTitlesScores.value.s1).toBeUndefined());
    const again = await screen.findByTestId('line-s1');
    await waitFor(() => expect(again).toHaveAttribute('data-stage', 'idle'));
  });

  test('the steps and the way back belong to the film on screen: none done before its answers', async () => {
    serve(runOf('run-2', []));
    renderAppAt('/prpt/dub/film-1');
    const steps = await screen.findByRole('list', { name: /步骤|steps/i });
    await waitFor(() =>
      expect(screen.getByTestId('dub-back')).toHaveAttribute('href', '/prpt/cinema/film-1'),
    );
    expect(steps.querySelectorAll('[data-done]')).toHaveLength(0);
    expect(within(steps).getByText('逐句配音').closest('li')).toHaveAttribute('aria-current', 'step');
  });

  test("once the film is answered: watch, answer and result done, and back opens this film's result", async () => {
    serve({ ...runOf('run-2', []), answers: { ...saved, part: 'prpt', filmId: 'film-1' } });
    renderAppAt('/prpt/dub/film-1');
    const back = await screen.findByRole('link', { name: '返回答题结果' });
    expect(back).toHaveAttribute('href', '/prpt/result?filmId=film-1');
    const steps = screen.getByRole('list', { name: /步骤|steps/i });
    const done = [...steps.querySelectorAll('[data-done]')].map((li) => li.textContent);
    expect(done).toHaveLength(3);
    expect(done.join(' ')).toMatch(/观看影片.*回答问题.*查看结果/);
  });
});
