import { afterEach, expect, test, vi } from 'vitest';
import { saveAnswers } from '../../../src/app/features/answers/save-answers';
import { prpo, prpt } from '../../../src/app/stores/films';
import { clearToasts, toasts } from '../../../src/app/stores/toast';
import { json, fixtureServerForFile, text } from '../api/fixture-server';

const server = fixtureServerForFile();
afterEach(() => {
  clearToasts();
  server.reset();
  vi.restoreAllMocks();
});

test('a failing data loader only logs: no toast, state untouched, null returned (stores/loader.ts)', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  prpt.movies.value = [];
  server.handle((_r, res) => text(res, 'oops', 500));
  await expect(prpt.loadMovies()).resolves.toBeNull();
  expect(toasts.value).toHaveLength(0);
  expect(prpt.movies.value).toEqual([]);
  expect(logged).toHaveBeenCalledWith(
    '[load] prpt movies failed',
    expect.objectContaining({ msg: '服务器异常，请稍后再试' }),
  );
});

test('a failing user action (save answers) shows the server message and rethrows', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.handle((_r, res) => json(res, { code: 400, msg: '请回答第 2 题', data: { field: 'answers' } }, 400));
  await expect(saveAnswers('prpo', { filmId: 'f1', answers: [] })).rejects.toMatchObject({ code: 400 });
  expect(toasts.value.map((x) => [x.kind, x.msg])).toEqual([['error', '请回答第 2 题']]);
});

test('loading a film detail derives the subtitle windows in seconds', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // the fixture film is partial: the dev contract check logs
  server.handle((_r, res) =>
    json(res, {
      code: 200,
      msg: 'ok',
      data: {
        id: 'f1',
        subtitlesList: [
          { id: 's1', startTime: '00:01', endTime: '00:03.5' },
          { id: 's2', startTime: '01:02', endTime: '01:04' },
        ],
      },
    }),
  );
  await prpt.loadMovieDetail('f1');
  expect(prpt.movieDetail.value?.subtitlesList.map((l) => [l.startTime_m, l.endTime_m])).toEqual([
    [1, 3.5],
    [62, 64],
  ]);
});

test('a film with a malformed subtitle time is rejected (logged), not loaded with NaN windows', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  prpo.movieDetail.value = null;
  server.handle((_r, res) =>
    json(res, {
      code: 200,
      msg: 'ok',
      data: { id: 'f2', subtitlesList: [{ id: 's1', startTime: '1:2:3:4', endTime: '00:02' }] },
    }),
  );
  await expect(prpo.loadMovieDetail('f2')).resolves.toBeNull();
  expect(prpo.movieDetail.value).toBeNull();
  expect(logged).toHaveBeenCalledWith(
    '[load] prpo movie detail failed',
    expect.objectContaining({ subtitleId: 's1' }),
  );
});
