import { screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { writeToken } from '../../../src/api/token';
import { prpt } from '../../../src/app/stores/films';
import { setLang } from '../../../src/app/i18n';
import { syncToken } from '../../../src/app/stores/account';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { loadScreenModules, renderAppAt } from '../app/render-app';

// A film id the server does not know is "film not found", not "the network may be unsteady"; a
// failure of the server itself still reads as one to retry.
const server = fixtureServerForFile();
beforeAll(async () => {
  await loadScreenModules();
});
beforeEach(async () => {
  await setLang('zh');
  writeToken('tok-1');
  syncToken();
});
afterEach(() => {
  server.reset();
  prpt.reset();
});

describe('a film that does not exist', () => {
  test.each([
    ['/prpt/cinema/nope', 'cinema'],
    ['/prpt/dub/nope', 'dub'],
  ])('%s says the film was not found', async (path) => {
    server.handle((_req, res) => json(res, { code: 404, msg: '影片不存在', data: null }, 404));
    renderAppAt(path);
    expect(await screen.findByText('没有找到这部影片', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/请从影片列表里选择/)).toBeInTheDocument();
    expect(screen.queryByText(/网络不稳定/)).toBeNull();
  });

  test('a server failure still says to reload', async () => {
    server.handle((_req, res) => json(res, { code: 500, msg: '服务器错误', data: null }, 500));
    renderAppAt('/prpt/cinema/film-1');
    expect(await screen.findByText(/网络不稳定/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('没有找到这部影片')).toBeNull();
  });
});
