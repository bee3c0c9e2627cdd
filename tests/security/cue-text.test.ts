import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FilmImportError, importFilmFolder, MAX_FILM_TEXT_BYTES } from '../../server/films/import';
import { MAX_CUE_CHARS } from '../../server/films/subtitle-parse';
import { describeEngines } from '../server/support/engines';
import { FIXTURE_SRT, makeFilmFolder } from '../server/support/film-fixture';
import { client } from '../server/support/http';
import { newLearner, seedSharedDub } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * A film's text is bounded at import (films:import says which file and why), and markup in a cue is
 * text: every page shows it as the characters it is, never as markup.
 */
const MARKUP = '<script>alert("cue")</script> <b>bold</b> & <img src=x onerror=alert(1)>';
const ROOT = path.resolve(import.meta.dirname, '../..');

async function importError(server: TestServer, folder: string): Promise<FilmImportError> {
  try {
    await importFilmFolder({ db: server.app.db, storage: server.app.storage }, folder);
  } catch (err) {
    expect(err).toBeInstanceOf(FilmImportError);
    return err as FilmImportError;
  }
  throw new Error('expected the import to fail');
}

describeEngines("a film's text is bounded and its markup shown as text", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it(`a cue longer than ${MAX_CUE_CHARS} characters is refused, naming the cue and the bound`, async () => {
    const folder = await makeFilmFolder('long-cue', (_m, dir) => {
      const srt = FIXTURE_SRT.replace('我们走吧！', '长'.repeat(MAX_CUE_CHARS + 1));
      fs.writeFileSync(path.join(dir, 'subtitles.srt'), srt);
    });
    const err = await importError(server, folder);
    expect(err.message).toContain(`cue 2 has ${MAX_CUE_CHARS + 1} characters`);
    expect(err.message).toContain(`at most ${MAX_CUE_CHARS}`);
    expect(
      await server.app.db.selectFrom('films').select('id').where('id', '=', 'long-cue').execute(),
    ).toEqual([]);
  });

  it('a subtitle file or film.json larger than the bound is refused before it is read', async () => {
    const bigSubs = await makeFilmFolder('big-subs', (_m, dir) => {
      fs.writeFileSync(path.join(dir, 'subtitles.srt'), `${FIXTURE_SRT}\n${'x'.repeat(MAX_FILM_TEXT_BYTES)}`);
    });
    expect((await importError(server, bigSubs)).message).toMatch(
      /subtitle file is \d+ KB; a film's subtitle file may be at most 256 KB/,
    );
    const bigJson = await makeFilmFolder('big-json', (m) => {
      m.synopsis = { zh: '简'.repeat(MAX_FILM_TEXT_BYTES / 3 + 1), en: 'long' };
    });
    expect((await importError(server, bigJson)).message).toMatch(
      /film\.json is \d+ KB; a film's film\.json may be at most 256 KB/,
    );
  });

  it('markup in a cue is stored as text, escaped in the track, and shown as text on the share page', async () => {
    const folder = await makeFilmFolder('test-film', (_m, dir) => {
      fs.writeFileSync(path.join(dir, 'subtitles.srt'), FIXTURE_SRT.replace('你好，世界。', MARKUP));
    });
    await importFilmFolder({ db: server.app.db, storage: server.app.storage }, folder);

    // The film's answer carries the text as a JSON string; the screens render it as text (below).
    const me = await newLearner(server, 'markup');
    const c = client(server.url);
    c.setToken(me.token);
    const info = (await c.postJson('/producer/active_relation_two/get_film_info', { id: 'test-film' })).body;
    expect(info.code).toBe(200);
    const first = info.data.subtitlesList[0] as { text: string };
    expect(first.text).toBe(MARKUP);

    // The player's WebVTT track escapes it: a player shows the characters, reads no tags.
    const film = await server.app.db
      .selectFrom('films')
      .select('track_key')
      .where('id', '=', 'test-film')
      .executeTakeFirstOrThrow();
    const track = (await server.app.storage.get(film.track_key)).toString('utf8');
    expect(track).toContain(
      '&lt;script&gt;alert("cue")&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; &amp; &lt;img',
    );
    expect(track).not.toContain('<script>');
    expect(track).not.toContain('<b>');

    // The phone's share page (server-rendered HTML) escapes it too.
    const { token } = await seedSharedDub(server, 'markup-sharer', Buffer.alloc(1024, 1));
    const page = await (await fetch(`${server.url}/producer/h5/report/${token}`)).text();
    expect(page).toContain('&lt;script&gt;alert(');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<script>alert(');
    expect(page).not.toContain('<img src=x');
  });

  it('no screen puts text into the page as HTML: React renders every cue as text', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name)) files.push(full);
      }
    };
    walk(path.join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(50);
    const sinks = files.filter((f) =>
      /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write\(/.test(
        fs.readFileSync(f, 'utf8'),
      ),
    );
    expect(sinks.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
