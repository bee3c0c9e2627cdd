import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, soundSuggestData, type WordCheck } from '../../src/api/contract';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { addUser, importFixtureFilm, insertTake } from './support/seed';

const P2 = '/producer/active_relation_two';
const FILM = 'test-film';

/** "你好，世界。" with 世界 missed, and the actor's check of the same line. */
const missedLast: WordCheck = {
  status: 'checked',
  language: 'zh',
  words: [
    { text: '你好', state: 'said', start: 0.2, end: 0.6 },
    { text: '世界', state: 'missed', start: null, end: null },
  ],
  completeness: 0.5,
  otherLine: false,
  pronunciation: null,
  score: 50,
};
const actorWords: WordCheck = {
  ...missedLast,
  words: [
    { text: '你好', state: 'said', start: 0.1, end: 0.5 },
    { text: '世界', state: 'said', start: 0.5, end: 0.9 },
  ],
  completeness: 1,
  score: 100,
};
const allSaid: WordCheck = { ...actorWords };

/**
 * The words of a take on the pages that read stored takes: the report's lines, the H5 share page and
 * the sound suggestion (which lists only the lines whose words need another go).
 */
describeEngines('the words on the report, the H5 page and the sound suggestion', (engine) => {
  let server: TestServer;
  const c = () => client(server.url);
  let learner: ReturnType<typeof c>;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    await importFixtureFilm(server);
    await addUser(server.app.db, 'wordsreader', 'words-pass');
    learner = c();
    const { id } = await learner.login('wordsreader', 'words-pass');
    const take = (line: number, words: WordCheck, second: number) =>
      insertTake(server.app.db, {
        userId: id,
        filmId: FILM,
        subtitleId: `${FILM}-${line}`,
        attempt: 1,
        overall: 40,
        detected: 'neutral',
        createdAt: `2026-01-03T00:00:0${second}.000Z`,
        words,
        actorWords,
      });
    await take(1, missedLast, 1);
    await take(2, allSaid, 2);
  });
  afterAll(() => server?.close());

  it("the report's lines carry each take's words and the actor's", async () => {
    const res = await learner.get(`${P2}/get_info_by_id`, { filmId: FILM });
    const lines = report.parse(res.body.data).dubbing?.lines ?? [];
    expect(lines.map((l) => l.first?.words?.status ?? null)).toEqual(['checked', 'checked', null]);
    expect(lines[0].first?.words).toEqual(missedLast);
    expect(lines[0].first?.actorWords).toEqual(actorWords);
  });

  it('the H5 page marks the missed word (struck, with screen-reader text) and says it, in its language', async () => {
    const link = (await learner.get(`${P2}/get_report_url`, { filmId: FILM })).body.data.url as string;
    const zh = await (await fetch(`${link}?lang=zh`)).text();
    expect(zh).toContain('<s class="w">世界<span class="sr">（漏说）</span></s>');
    expect(zh).toContain('说出了 1/2 个词，漏了：世界');
    expect(zh).toContain('台词 50');
    expect(zh).toContain('2 个词都说出来了');
    const en = await (await fetch(`${link}?lang=en`)).text();
    expect(en).toContain('<s class="w">世界<span class="sr"> (missed)</span></s>');
    expect(en).toContain('You said 1 of 2 words; missed: 世界');
    expect(en).toContain('Words 50');
  });

  it('the sound suggestion lists only the lines whose words need another go, playable from both', async () => {
    const res = await learner.postJson(`${P2}/get_sounds_interpretation`, { filmId: FILM, lang: 'en' });
    expect(res.body.code).toBe(200);
    const data = soundSuggestData.parse(res.body.data);
    expect(data.words?.map((l) => [l.subtitlesId, l.index])).toEqual([[`${FILM}-1`, 1]]);
    const line = data.words![0];
    expect(line.words).toEqual(missedLast);
    expect(line.actorWords).toEqual(actorWords);
    // The take's audio is signed like every other take link; the actor's line is a media path.
    expect(line.audioUrl).toMatch(/^\/media\/takes\/.+\.wav\?exp=\d+&sig=[\w-]+$/);
    expect(line.referenceAudio).toMatch(/^\/media\/films\/test-film\/.+\/lines\/1\.wav$/);
  });
});
