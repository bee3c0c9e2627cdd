import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { AnswerScreen } from '../../../src/app/screens/answer/answer-screen';
import { readDraft, readLastResult, writeLastResult } from '../../../src/app/features/answers/answer-storage';
import { ResultScreen } from '../../../src/app/screens/result/result-screen';
import { prpo } from '../../../src/app/stores/films';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { detail, saved } from './fixtures';
import { renderScreen } from './render-screen';

const server = fixtureServerForFile();
beforeEach(() => {
  setLang('zh');
  server.handle((req, res) => {
    if (req.url.pathname.endsWith('/get_film_info')) return json(res, { code: 200, msg: 'ok', data: detail });
    if (req.url.pathname.endsWith('/save_question_record'))
      return json(res, { code: 200, msg: 'ok', data: saved });
    json(res, { code: 404, msg: 'no such call', data: null });
  });
});
afterEach(() => {
  server.reset();
  prpo.reset();
});

const open = () =>
  renderScreen(<AnswerScreen part="prpo" id="film-1" />, '/prpo/answer/film-1', '/prpo/answer/:id', {
    '/prpo/result': <ResultScreen part="prpo" />,
  });

describe('answer screen', () => {
  test('loads the questions, counts answers and blocks a submit with required questions open', async () => {
    const user = userEvent.setup();
    open();
    expect(await screen.findByText('马克斯说话时是什么情绪？')).toBeInTheDocument();
    expect(prpo.movieDetail.value?.id).toBe('film-1');
    expect(screen.getByRole('progressbar', { name: '已回答 0 / 3' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '提交答案' }));
    expect(screen.getByRole('alert')).toHaveTextContent('还有 2 道必答题没有回答');
    expect(screen.getAllByText('请回答这道题')).toHaveLength(2);
    // Nothing was sent: the film detail was the only call.
    expect(server.seen.filter((r) => r.url.pathname.endsWith('/save_question_record'))).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: '平静' }));
    expect(screen.getByRole('progressbar', { name: '已回答 1 / 3' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('还有 1 道必答题没有回答');
  });

  test('keeps every answer in the tab: a reload restores choices and text', async () => {
    const user = userEvent.setup();
    const first = open();
    await screen.findByText('马克斯说话时是什么情绪？');
    await user.click(screen.getByRole('radio', { name: '愤怒' }));
    await user.click(screen.getByRole('checkbox', { name: '悲伤' }));
    await user.click(screen.getByRole('checkbox', { name: '恐惧' }));
    await user.type(screen.getByRole('textbox', { name: '你会怎么说这句话？' }), '轻一点');
    expect(readDraft('prpo', 'film-1')).toEqual({ q1: 'b', q2: ['a', 'c'], q3: '轻一点' });
    first.unmount();

    open();
    await screen.findByText('已恢复你上次填写的答案');
    expect(screen.getByRole('radio', { name: '愤怒' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '悲伤' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '喜悦' })).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: '你会怎么说这句话？' })).toHaveValue('轻一点');
  });

  test('a valid submit saves the answers, clears the draft and shows the result with explanations', async () => {
    const user = userEvent.setup();
    const { router } = open();
    await screen.findByText('马克斯说话时是什么情绪？');
    await user.click(screen.getByRole('radio', { name: '平静' }));
    await user.click(screen.getByRole('checkbox', { name: '喜悦' }));
    await user.click(screen.getByRole('button', { name: '提交答案' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/prpo/result'));
    const sent = server.seen.find((r) => r.url.pathname.endsWith('/save_question_record'));
    expect(JSON.parse(String(sent?.body))).toMatchObject({
      filmId: 'film-1',
      answers: [
        { questionId: 'q1', value: 'a' },
        { questionId: 'q2', value: ['b'] },
      ],
    });
    expect(readDraft('prpo', 'film-1')).toBeNull();
    expect(readLastResult('prpo')?.data.recordId).toBe('rec-9');

    expect(await screen.findByRole('progressbar', { name: '得分率 50%' })).toBeInTheDocument();
    expect(screen.getByText('回答正确')).toBeInTheDocument();
    expect(screen.getByText('回答有误')).toBeInTheDocument();
    expect(screen.getByText('开放题，不自动评分')).toBeInTheDocument();
    // The wrong answer names the right options by label, not id.
    expect(screen.getByText('悲伤；恐惧')).toBeInTheDocument();
    expect(screen.getByText('她的声音在发抖。')).toBeInTheDocument();
    const next = screen.getAllByRole('link', { name: '查看训练报告' })[0];
    expect(next).toHaveAttribute('href', '/prpo/report/rec-9');
    await act(async () => {
      await user.click(next);
    });
    expect(screen.getByTestId('where')).toHaveTextContent('/prpo/report/rec-9');
  });
});

describe('result screen in a new browser session', () => {
  const summary = {
    runId: 'run-5',
    part: 'prpo' as const,
    filmId: 'film-1',
    filmTitle: detail.title,
    filmTitleEn: detail.titleEn,
    startedAt: '2026-11-23T09:00:00Z',
    updatedAt: '2026-11-23T09:05:00Z',
    answered: true,
    answerPercent: 50,
    dubbedLines: 0,
    totalLines: 2,
    dubbingAverage: null,
  };

  test('nothing answered in this tab: the latest answered run comes from the server', async () => {
    server.handle((req, res) => {
      const p = req.url.pathname;
      if (p.endsWith('/get_run_history'))
        return json(res, {
          code: 200,
          msg: 'ok',
          data: { runs: [{ ...summary, runId: 'run-6', answered: false, answerPercent: null }, summary] },
        });
      if (p.endsWith('/get_run'))
        return json(res, {
          code: 200,
          msg: 'ok',
          data: { run: summary, answers: { ...saved, runId: 'run-5' }, lines: [] },
        });
      if (p.endsWith('/get_film_info')) return json(res, { code: 200, msg: 'ok', data: detail });
      json(res, { code: 404, msg: 'no such call', data: null });
    });
    renderScreen(<ResultScreen part="prpo" />, '/prpo/result');
    expect(await screen.findByRole('progressbar', { name: '得分率 50%' })).toBeInTheDocument();
    // The ring is the share (with its unit), the text the points: two numbers, never both "the score".
    expect(screen.getByRole('progressbar', { name: '得分率 50%' })).toHaveTextContent('50%');
    expect(screen.getByText(detail.title)).toBeInTheDocument();
    expect(screen.getByText('悲伤；恐惧')).toBeInTheDocument();
    // The run asked for is the latest one with answers, not the newer unanswered one.
    const asked = server.seen.find((r) => r.url.pathname.endsWith('/get_run'));
    expect(asked?.url.searchParams.get('runId')).toBe('run-5');
    expect(screen.getAllByRole('link', { name: '查看训练报告' })[0]).toHaveAttribute(
      'href',
      '/prpo/report/rec-9',
    );
  });

  test('no answered run at all: the empty state with a way on', async () => {
    server.handle((req, res) => {
      if (req.url.pathname.endsWith('/get_run_history'))
        return json(res, { code: 200, msg: 'ok', data: { runs: [] } });
      json(res, { code: 404, msg: 'no such call', data: null });
    });
    renderScreen(<ResultScreen part="prpo" />, '/prpo/result');
    expect(await screen.findByText('还没有答题结果')).toBeInTheDocument();
  });

  test("?filmId= shows that film's result only: another film answered in this tab is not shown", async () => {
    writeLastResult('prpo', {
      filmId: 'film-1',
      filmTitle: detail.title,
      filmTitleEn: detail.titleEn,
      questions: detail.questions,
      data: saved,
    });
    server.handle((req, res) => {
      const p = req.url.pathname;
      if (p.endsWith('/get_run'))
        return json(res, { code: 200, msg: 'ok', data: { run: null, answers: null, lines: [] } });
      if (p.endsWith('/get_film_info')) return json(res, { code: 200, msg: 'ok', data: detail });
      json(res, { code: 404, msg: 'no such call', data: null });
    });
    renderScreen(<ResultScreen part="prpo" filmId="film-2" />, '/prpo/result');
    expect(await screen.findByText('还没有答题结果')).toBeInTheDocument();
    const asked = server.seen.find((r) => r.url.pathname.endsWith('/get_run'));
    expect(asked?.url.searchParams.get('filmId')).toBe('film-2');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
