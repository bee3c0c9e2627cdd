import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import * as calls from '../../../src/api/calls';
import { type CallName, ENDPOINTS } from '../../../src/api/contract/endpoints';
import { fixtureServerForFile } from './fixture-server';

const server = fixtureServerForFile();
let logged: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  server.reset();
  // The fixture answers `data: null`, which the dev-time contract check reports; keep the output quiet.
  logged = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => logged.mockRestore());

const wav = new Blob([new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0])], { type: 'audio/wav' });

/** Each named call invoked with a typical payload. */
const invoke: Record<CallName, () => Promise<unknown>> = {
  getAuthQRCode: () => calls.getAuthQRCode(),
  accountLogin: () => calls.accountLogin({ account: 'learner', password: 'pw' }),
  getWxLoginStatus: () => calls.getWxLoginStatus({ uuid: 'u'.repeat(20), wait: 20000 }),
  getMovies_prpo: () => calls.getMovies_prpo({ page: 1 }),
  getMovieDetail_prpo: () => calls.getMovieDetail_prpo({ id: 'f1' }),
  saveQA_prpo: () => calls.saveQA_prpo({ filmId: 'f1', answers: [] }),
  getPrpo_report: () => calls.getPrpo_report({ id: 'r1' }),
  getReportH5Url: () => calls.getReportH5Url({ id: 'r1' }),
  getMovies_prpt: () => calls.getMovies_prpt({ page: 1 }),
  getMovieDetail_prpt: () => calls.getMovieDetail_prpt({ id: 'f1' }),
  saveQA_prpt: () => calls.saveQA_prpt({ filmId: 'f1', answers: [] }),
  discernSpeechEmotion: () =>
    calls.discernSpeechEmotion({
      file: wav,
      subtitlesId: 's7',
      filmId: 'f1',
      attempt: 2,
      takeId: 'take-0001',
      runId: 'run-0001',
    }),
  getSoundSuggest: () => calls.getSoundSuggest({ filmId: 'f1', lang: 'zh' }),
  getPrpTReport: () => calls.getPrpTReport(),
  getPrpTReportH5Url: () => calls.getPrpTReportH5Url(),
};

test('there are exactly the fifteen named calls of docs/api.md', () => {
  expect(Object.keys(ENDPOINTS).sort()).toEqual(Object.keys(invoke).sort());
  expect(Object.keys(ENDPOINTS)).toHaveLength(15);
});

test.each(Object.keys(invoke) as CallName[])(
  '%s uses its method, path, origin and body kind',
  async (name) => {
    const ep = ENDPOINTS[name];
    await invoke[name]().catch(() => {}); // the fixture answers data:null; shape checks only log
    const seen = server.last();
    expect(seen.method).toBe(ep.method);
    expect(seen.url.pathname).toBe(`${ep.origin === 'ai' ? '/ai' : '/producer'}${ep.path}`);
    expect(seen.url.searchParams.has('_v')).toBe(true);
    const type = String(seen.headers['content-type'] ?? '');
    if (ep.method === 'GET') expect(seen.body.length).toBe(0);
    else if (ep.body === 'json') expect(type).toMatch(/^application\/json/);
    else if (ep.body === 'form') expect(type).toMatch(/^application\/x-www-form-urlencoded/);
    else expect(type).toMatch(/^multipart\/form-data/);
  },
);

test('discernSpeechEmotion sends the wav as field `file` named <subtitlesId>.wav with the take fields', async () => {
  await invoke.discernSpeechEmotion().catch(() => {});
  const body = server.last().body.toString('latin1');
  expect(body).toMatch(/name="file"; filename="s7\.wav"/);
  expect(body).toMatch(/name="subtitlesId"\r\n\r\ns7\r\n/);
  expect(body).toMatch(/name="attempt"\r\n\r\n2\r\n/);
  expect(body).toMatch(/name="takeId"\r\n\r\ntake-0001\r\n/);
  expect(body).toMatch(/name="runId"\r\n\r\nrun-0001\r\n/);
});

test('getPrpTReport sends an empty payload with the JSON header (docs/api.md)', async () => {
  await invoke.getPrpTReport().catch(() => {});
  const seen = server.last();
  expect([...seen.url.searchParams.keys()]).toEqual(['_v']);
  expect(seen.headers['content-type']).toMatch(/^application\/json/);
});

test('in development a response that breaks the contract is logged, not thrown', async () => {
  server.handle((_r, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 200, msg: 'ok', data: { url: 42 } }));
  });
  await expect(calls.getAuthQRCode()).resolves.toEqual({ url: 42 });
  expect(String(logged.mock.calls.at(-1)?.[0])).toMatch(/getAuthQRCode response does not match the contract/);
});
