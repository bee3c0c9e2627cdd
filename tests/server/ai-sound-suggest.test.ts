import { afterAll, beforeAll, expect, it } from 'vitest';
import { soundSuggestData, speechScore } from '../../src/api/contract';
import { DEMO_ACCOUNT } from '../../server/auth/users';
import { startTestServer, type TestServer } from '../support/server';
import { AI_FILM, fixtureWav, LINES, postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { type Client, client } from './support/http';
import { addUser } from './support/seed';

const PATH = '/producer/active_relation_two/get_sounds_interpretation';

describeEngines('sound suggestion from stored takes', (engine) => {
  let server: TestServer;
  let api: Client;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await seedAiFilm(server.app);
    api = client(server.url);
    token = (await api.login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password)).token;
  });
  afterAll(() => server?.close());

  it('answers 404 before the learner has dubbed anything', async () => {
    await addUser(server.app.db, 'silent', 'silent-pass');
    const silent = client(server.url);
    await silent.login('silent', 'silent-pass');
    const res = await silent.postJson(PATH, { filmId: AI_FILM });
    expect(res.body.code).toBe(404);
  });

  it('interprets the stored takes: figures and lines derived from them, first → second change', async () => {
    const post = async (subtitlesId: string, attempt: string, file: string) => {
      const { body } = await postTake(server.url, token, { subtitlesId, attempt, file: fixtureWav(file) });
      expect(body.code).toBe(200);
      return speechScore.parse(body.data);
    };
    const first = await post(LINES.angry, '1', '15a01La.wav');
    const second = await post(LINES.angry, '2', '15a02Wd.wav');
    const other = await post(LINES.neutral, '1', '15a01Nb.wav');

    const res = await api.postJson(PATH, { filmId: AI_FILM });
    expect(res.body.code).toBe(200);
    const data = soundSuggestData.parse(res.body.data);
    expect(data.lang).toBe('zh');
    expect(data.figures.scoredLines).toBe(2);
    expect(data.figures.totalLines).toBe(3);
    expect(data.figures.improvement).toBeCloseTo(second.overall - first.overall, 1);
    expect(data.figures.average).toBeCloseTo((second.overall + other.overall) / 2, 1);
    const lines = data.audioInterpret.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(lines[0]).toContain('2/3');
    expect(lines[0]).toContain(String(Math.round((second.overall + other.overall) / 2)));
    const progress = lines.find((l) => l.startsWith('进步'));
    const delta = second.overall - first.overall;
    expect(progress).toContain(`${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(1)}`);
    expect(lines[lines.length - 1]).toMatch(/^下一步练习：/);
    // The pitch range quoted is the median of the latest takes' own figures.
    const ranges = [second, other]
      .map((s) => s.prosody.learner.pitchRangeSemitones ?? 0)
      .sort((a, b) => a - b);
    expect(data.figures.pitchRangeSemitones).toBeCloseTo((ranges[0] + ranges[1]) / 2, 1);

    // The same takes in English on request.
    const en = soundSuggestData.parse((await api.postJson(PATH, { filmId: AI_FILM, lang: 'en' })).body.data);
    expect(en.lang).toBe('en');
    expect(en.audioInterpret.split('\n')[0]).toMatch(/^Overall: 2\/3 lines dubbed/);
    expect(en.audioInterpret).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
