import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { arcPoints } from '../../../src/app/screens/report/report-view';
import { ReportScreen } from '../../../src/app/screens/report/report-screen';
import { SoundSuggestScreen } from '../../../src/app/screens/sound-suggest/sound-suggest-screen';
import { setSoundSuggest } from '../../../src/app/screens/sound-suggest/sound-suggest-state';
import { json } from '../api/fixture-server';
import { prptReport } from './fixtures';
import { renderScreen, reportServerForFile } from './render-screen';

const server = reportServerForFile();
afterEach(() => setSoundSuggest(null));

describe('prpt report', () => {
  test('shows scores, per-line dubbing with the retake gain, strengths, practice and the H5 QR', async () => {
    server.handle((req, res) => {
      if (req.url.pathname.endsWith('/get_info_by_id'))
        return json(res, { code: 200, msg: 'ok', data: prptReport });
      if (req.url.pathname.endsWith('/get_report_url'))
        return json(res, {
          code: 200,
          msg: 'ok',
          data: { url: 'https://kiosk.example/producer/h5/report/abc', expiresAt: '2026-11-28T00:00:00Z' },
        });
      json(res, { code: 404, msg: 'no', data: null });
    });
    renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
    expect(
      await screen.findByRole('heading', { level: 1, name: '训练报告 · 奶奶的房子' }),
    ).toBeInTheDocument();
    expect(screen.getByText('学员：演示学员')).toBeInTheDocument();
    expect(screen.getByText('用时 2:05')).toBeInTheDocument();
    expect(screen.getByText('+12.0')).toBeInTheDocument();

    // One region named for the dubbing (the card), holding the per-line table and its count.
    const dubbing = screen.getByRole('region', { name: '配音' });
    expect(within(dubbing).getByText('已评分 1/2 句')).toBeInTheDocument();
    const table = within(dubbing).getByRole('table');
    // A line's row is the one headed by its text; a scored line's melody versions follow in a row of their own.
    const rows = within(table)
      .getAllByRole('row')
      .filter((r) => within(r).queryByRole('rowheader'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('62');
    expect(rows[0]).toHaveTextContent('74');
    expect(rows[0]).toHaveTextContent('+12');
    expect(rows[1]).toHaveTextContent('未配音');

    expect(screen.getByText('语调起伏和演员接近')).toBeInTheDocument();
    expect(screen.getByText('重录第 2 句，先哼旋律。')).toBeInTheDocument();
    // qrcode is imported lazily (only the report loads it): give the chunk time in a cold run.
    expect(await screen.findByRole('img', { name: '报告链接二维码' }, { timeout: 8000 })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png/),
    );
    expect(screen.getByRole('link', { name: '打开报告链接' })).toHaveAttribute(
      'href',
      'https://kiosk.example/producer/h5/report/abc?lang=zh',
    );
    // The H5 link was asked for this record.
    const urlCall = server.seen.find((r) => r.url.pathname.endsWith('/get_report_url'));
    expect(urlCall?.url.searchParams.get('id')).toBe('rec-7');
  }, 15_000);

  test('the emotion arc uses the best take per line and the actor, and leaves gaps for undubbed lines', () => {
    expect(arcPoints(prptReport)).toEqual([
      expect.objectContaining({ label: '1', learnerArousal: 0.2, actorArousal: 0.1, actorValence: 0 }),
      expect.objectContaining({ label: '2', learnerArousal: null, learnerValence: null, actorValence: -0.5 }),
    ]);
  });

  test('the emotion arc leaves a gap for a take rejected as "no speech heard" (nothing of it was read)', () => {
    const [line] = prptReport.dubbing?.lines ?? [];
    const latest = line.second ?? line.first;
    if (!latest) throw new Error('fixture line 1 has a take');
    const rejected = { ...latest, speechDetected: false, arousal: 0.07, valence: -1 };
    const report = {
      ...prptReport,
      dubbing: { ...prptReport.dubbing, lines: [{ ...line, first: rejected, second: null }] },
    } as typeof prptReport;
    expect(arcPoints(report)).toEqual([
      expect.objectContaining({ label: '1', learnerArousal: null, learnerValence: null, actorArousal: 0.1 }),
    ]);
  });

  test('any run is reachable (?runId=), and the history lists earlier runs with dates and scores', async () => {
    const run = (
      runId: string,
      filmTitle: string,
      updatedAt: string,
      answerPercent: number | null,
      avg: number | null,
    ) => ({
      runId,
      part: 'prpt' as const,
      filmId: runId === 'run-a' ? 'film-2' : 'film-1',
      filmTitle,
      filmTitleEn: runId === 'run-a' ? 'The Rehearsal' : "Grandma's Flat",
      startedAt: updatedAt,
      updatedAt,
      answered: answerPercent !== null,
      answerPercent,
      dubbedLines: avg === null ? 0 : 2,
      totalLines: 2,
      dubbingAverage: avg,
    });
    const earlier = {
      ...prptReport,
      runId: 'run-b',
      // No dubbing section: its chart needs a canvas, which this DOM has not got.
      dubbing: null,
      progress: [
        run('run-a', '排练', '2026-11-20T08:00:00Z', 40, null),
        run('run-b', '奶奶的房子', '2026-11-21T10:00:00Z', 67, 41.4),
        run('run-c', '奶奶的房子', '2026-11-22T10:00:00Z', 100, 51.6),
      ],
    };
    server.handle((req, res) => {
      if (req.url.pathname.endsWith('/get_info_by_id'))
        return json(res, { code: 200, msg: 'ok', data: earlier });
      json(res, { code: 404, msg: 'no', data: null });
    });
    renderScreen(<ReportScreen part="prpt" select={{ runId: 'run-b' }} />, '/prpt/report');
    const history = await screen.findByRole('region', { name: '训练记录' });
    const asked = server.seen.find((r) => r.url.pathname.endsWith('/get_info_by_id'));
    expect(asked?.url.searchParams.get('runId')).toBe('run-b');
    // The H5 link names the same run.
    await waitFor(() =>
      expect(
        server.seen.find((r) => r.url.pathname.endsWith('/get_report_url'))?.url.searchParams.get('runId'),
      ).toBe('run-b'),
    );
    const rows = within(within(history).getByRole('table')).getAllByRole('row').slice(1);
    // Newest first; this run is marked, the others open their own report.
    expect(rows.map((r) => r.getAttribute('data-run'))).toEqual(['run-c', 'run-b', 'run-a']);
    expect(rows[0]).toHaveTextContent('100%');
    expect(rows[0]).toHaveTextContent('2/2 句 · 平均 52');
    expect(rows[1]).toHaveAttribute('aria-current', 'true');
    expect(rows[1]).toHaveTextContent('本次');
    expect(rows[2]).toHaveTextContent('排练');
    expect(rows[2]).toHaveTextContent('未配音');
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/prpt/report?runId=run-c');
    expect(within(rows[1]).queryByRole('link')).toBeNull();
    // Above the table, the progress curve of those runs (answers and dubbing average).
    expect(await within(history).findByText('进步曲线')).toBeInTheDocument();
    expect(within(history).getByText('最近 3 次训练的答题得分与配音平均分，从早到晚。')).toBeInTheDocument();

    await act(() => setLang('en'));
    expect(await screen.findByRole('region', { name: 'Training history' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('The Rehearsal');
    expect(rows[0]).toHaveTextContent('2/2 lines · average 52');
  });

  test('a missing report shows an empty state with a way on, not a blank page', async () => {
    server.handle((_req, res) => json(res, { code: 404, msg: '还没有训练记录', data: null }));
    renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
    expect(await screen.findByRole('heading', { name: '还没有报告' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '浏览影片' })).toHaveAttribute('href', '/prpt/movies');
  });
});

describe('sound suggestion', () => {
  test('an answer without points shows its lines as they are, guessing no figure from the text', async () => {
    server.handle((_req, res) =>
      json(res, {
        code: 200,
        msg: 'ok',
        data: {
          filmId: 'film-1',
          lang: 'zh',
          audioInterpret: '总评：已配 1/2 句，平均 74 分。\n\n情绪：1 句中有 1 句情绪与目标一致（100%）。',
          figures: {
            scoredLines: 1,
            totalLines: 2,
            average: 74,
            improvement: 12,
            pitchRangeSemitones: 4.12,
            syllablesPerSecond: null,
            loudnessRangeDb: 9,
            emotionMatchRate: 1,
          },
        },
      }),
    );
    renderScreen(<SoundSuggestScreen id="film-1" />, '/prpt/soundSuggest/film-1');
    const list = await screen.findByRole('list', { name: '声音建议' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('总评');
    expect(items[0]).toHaveTextContent('1/2');
    // Nothing reads the sentence to decide which figure it talks about.
    expect(items[1]).toHaveTextContent('情绪：1 句中有 1 句情绪与目标一致（100%）。');
    expect(within(items[1]).queryByRole('definition')).toBeNull();
    expect(screen.getByText('4.1 半音')).toBeInTheDocument();
    expect(screen.getAllByText('暂无').length).toBeGreaterThan(0);
    expect(JSON.parse(String(server.last().body))).toEqual({ filmId: 'film-1', lang: 'zh' });
  });

  test('asks for the run the dub screen showed for the film', async () => {
    const { adoptRunScores, clearScores } = await import('../../../src/app/stores/takes/sub-titles-scores');
    const { loadSoundSuggest } = await import('../../../src/app/screens/sound-suggest/sound-suggest-state');
    adoptRunScores('film-1', 'run-9', []);
    server.handle((_req, res) => json(res, { code: 404, msg: '还没有配音记录，请先完成配音', data: null }));
    await loadSoundSuggest('film-1', 'en');
    expect(JSON.parse(String(server.last().body))).toEqual({ filmId: 'film-1', lang: 'en', runId: 'run-9' });
    clearScores();
  });

  test('a film not dubbed yet is "no tips yet", not a failure: nothing is logged', async () => {
    const { loadSoundSuggest, soundSuggest } = await import(
      '../../../src/app/screens/sound-suggest/sound-suggest-state'
    );
    server.handle((_req, res) =>
      json(res, { code: 404, msg: '还没有配音记录，请先完成配音', data: { msgId: 'error.noTakes' } }),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await loadSoundSuggest('film-1', 'zh')).toBeNull();
      expect(soundSuggest.value).toBeNull();
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  test('with the server points, each statement shows the very figures it quotes (one source per number)', async () => {
    const text = ['总评：已配 2/7 句，平均 51 分。', '语调：语调分平均 43，与演员的音高差 2.5 个半音。'];
    server.handle((_req, res) =>
      json(res, {
        code: 200,
        msg: 'ok',
        data: {
          filmId: 'film-1',
          lang: 'zh',
          audioInterpret: text.join('\n'),
          figures: {
            scoredLines: 2,
            totalLines: 7,
            average: 51.4,
            improvement: null,
            pitchRangeSemitones: 4,
            syllablesPerSecond: 4,
            loudnessRangeDb: 9,
            emotionMatchRate: null,
          },
          subScores: { emotion: 50, intonation: 43.2, energy: 60, timing: 55, quality: 90 },
          pitchDistanceSt: 2.46,
          points: [
            {
              topic: 'overall',
              text: text[0],
              head: '总评',
              body: text[0].slice(3),
              figures: ['figures.scoredLines', 'figures.average'],
            },
            {
              topic: 'melody',
              text: text[1],
              head: '语调',
              body: text[1].slice(3),
              figures: ['subScores.intonation', 'pitchDistanceSt'],
            },
          ],
        },
      }),
    );
    renderScreen(<SoundSuggestScreen id="film-1" />, '/prpt/soundSuggest/film-1');
    const list = await screen.findByRole('list', { name: '声音建议' });
    const [overall, melody] = within(list).getAllByRole('listitem');
    expect(overall).toHaveTextContent('平均得分51');
    // The melody statement says 43: its card shows the intonation average 43, not the overall 51.
    expect(melody).toHaveTextContent('语调平均分43');
    expect(melody).toHaveTextContent('与演员的音高差2.5 半音');
    expect(melody).not.toHaveTextContent('平均得分');
  });
});
