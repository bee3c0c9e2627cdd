import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mediaSlots } from '../../server/lib/stream-slots';
import { describeEngines } from '../server/support/engines';
import { importFixtureFilm, seedSharedDub } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * A client that opens media streams and never reads them cannot shut out everyone behind its
 * address (a classroom behind one NAT): a stream waiting on its client gives its slot to the next
 * one (MEDIA_STALLED_MS), and is closed when its client takes nothing for MEDIA_IDLE_MS. The file is
 * larger than loopback's socket buffers, so an unread stream stays open on its own.
 */
const SIZE = 20 * 1024 * 1024;
/** Bytes that differ along the file, so a range answered from the wrong place shows. */
function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 12)) & 255;
  return bytes;
}
const PER_IP = 48;
const PER_TOKEN = 8;

interface Open {
  req: http.ClientRequest;
  res: http.IncomingMessage;
}

/** n GETs, each on its own connection, whose bodies are never read (the client stops reading its socket). */
function openUnread(url: string, n: number): Promise<Open[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Open>((resolve, reject) => {
          const req = http.get(url, { agent: false }, (res) => resolve({ req, res }));
          req.on('error', reject);
        }),
    ),
  );
}

/** Reads what is left of a response; true when its whole body arrived, false when it was cut. */
const readToEnd = ({ res }: Open) =>
  new Promise<boolean>((resolve) => {
    res.on('end', () => resolve(res.complete));
    res.on('error', () => resolve(false));
    res.on('close', () => resolve(res.complete));
    res.resume();
  });

async function getBytes(url: string, range?: [number, number]) {
  const res = await fetch(url, range ? { headers: { range: `bytes=${range[0]}-${range[1]}` } } : {});
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** Plays like a video element: a few Range requests in turn, each checked against the stored bytes. */
async function playWithRange(url: string, stored: Buffer) {
  for (const start of [0, 5 * 1024 * 1024, stored.length - 65_536]) {
    const end = Math.min(start + 65_535, stored.length - 1);
    const got = await getBytes(url, [start, end]);
    expect(got.status).toBe(206);
    expect(got.body.equals(stored.subarray(start, end + 1))).toBe(true);
  }
}

describeEngines('a stream that is not being read holds no slot', (engine) => {
  const video = patterned(SIZE);
  const dub = patterned(SIZE).reverse();

  describe('a stalled stream gives its slot to a classmate', () => {
    let server: TestServer;
    let videoUrl: string;
    let posterUrl: string;
    let dubUrl: string;
    const held: Open[] = [];
    beforeAll(async () => {
      // Streams are closed for idleness only after ten minutes here: what frees a slot is the stall.
      server = await startTestServer({ engine, env: { MEDIA_STALLED_MS: '200', MEDIA_IDLE_MS: '600000' } });
      await importFixtureFilm(server);
      const film = await server.app.db
        .selectFrom('films')
        .select(['poster_key', 'video_key'])
        .where('id', '=', 'test-film')
        .executeTakeFirstOrThrow();
      await server.app.storage.put(film.video_key, video);
      videoUrl = `${server.url}/producer/media/${film.video_key}`;
      posterUrl = `${server.url}/producer/media/${film.poster_key}`;
      dubUrl = `${server.url}${(await seedSharedDub(server, 'stall-sharer', dub)).dubPath}`;
    });
    // Each case starts with no stream held: the other's unread streams are ended and given back.
    afterEach(async () => {
      for (const { req } of held.splice(0)) req.destroy();
      await vi.waitFor(() => expect(mediaSlots(server.app).count('ip:127.0.0.1')).toBe(0), {
        timeout: 10_000,
        interval: 50,
      });
    });
    afterAll(() => server?.close());

    it(`${PER_IP} unread downloads of a film's video: the same address still gets the poster and plays the video with Range`, async () => {
      const unread = await openUnread(videoUrl, PER_IP);
      held.push(...unread);
      expect(unread.map((o) => o.res.statusCode)).toEqual(Array(PER_IP).fill(200));
      // The poster is answered once the unread streams have waited MEDIA_STALLED_MS on their client;
      // until then the address is at its bound (429).
      const poster = await vi.waitFor(
        async () => {
          const got = await getBytes(posterUrl);
          expect(got.status).toBe(200);
          return got;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(poster.body.length).toBeGreaterThan(0);
      await playWithRange(videoUrl, video);
    });

    it(`${PER_TOKEN} unread downloads of a share link's dubbed video: the link still plays with Range`, async () => {
      const unread = await openUnread(dubUrl, PER_TOKEN);
      held.push(...unread);
      expect(unread.map((o) => o.res.statusCode)).toEqual(Array(PER_TOKEN).fill(200));
      await vi.waitFor(
        async () => {
          const got = await getBytes(dubUrl, [0, 99]);
          expect(got.status).toBe(206);
          expect(got.body.equals(dub.subarray(0, 100))).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
      await playWithRange(dubUrl, dub);
    });
  });

  describe('an idle stream is closed; a slow reader is not', () => {
    const IDLE_MS = 1000;
    let server: TestServer;
    let videoUrl: string;
    let dubUrl: string;
    beforeAll(async () => {
      // Stalled streams keep their slots here: what ends them is the idle bound.
      server = await startTestServer({
        engine,
        env: { MEDIA_STALLED_MS: '600000', MEDIA_IDLE_MS: String(IDLE_MS) },
      });
      await importFixtureFilm(server);
      const film = await server.app.db
        .selectFrom('films')
        .select('video_key')
        .where('id', '=', 'test-film')
        .executeTakeFirstOrThrow();
      await server.app.storage.put(film.video_key, video);
      videoUrl = `${server.url}/producer/media/${film.video_key}`;
      dubUrl = `${server.url}${(await seedSharedDub(server, 'idle-sharer', dub)).dubPath}`;
    });
    afterAll(() => server?.close());

    it('the server closes every unread stream of the video and of the dubbed video, then serves them again', async () => {
      // As many as the address may hold: the video's and the share link's together.
      const unread = [
        ...(await openUnread(videoUrl, PER_IP - PER_TOKEN)),
        ...(await openUnread(dubUrl, PER_TOKEN)),
      ];
      try {
        expect(unread.map((o) => o.res.statusCode)).toEqual(Array(PER_IP).fill(200));
        // The server ends them within MEDIA_IDLE_MS (1 s here): their slots come back ...
        await vi.waitFor(() => expect(mediaSlots(server.app).count('ip:127.0.0.1')).toBe(0), {
          timeout: 10_000,
          interval: 50,
        });
        // ... and each body was cut short.
        expect(await Promise.all(unread.map(readToEnd))).toEqual(Array(unread.length).fill(false));
      } finally {
        for (const { req } of unread) req.destroy();
      }
      await playWithRange(videoUrl, video);
      await playWithRange(dubUrl, dub);
    });

    it('a slow reader that reads through pauses shorter than MEDIA_IDLE_MS gets the whole file', async () => {
      const started = Date.now();
      const body = await new Promise<Buffer>((resolve, reject) => {
        http
          .get(videoUrl, { agent: false }, (res) => {
            const chunks: Buffer[] = [];
            // Reads a chunk, then pauses a little: a phone on a slow network.
            res.on('data', (c: Buffer) => {
              chunks.push(c);
              res.pause();
              setTimeout(() => res.resume(), 4);
            });
            res.on('end', () => resolve(Buffer.concat(chunks)));
            res.on('error', reject);
          })
          .on('error', reject);
      });
      expect(body.equals(video)).toBe(true);
      // The read spanned longer than the idle bound, so the bound did meet a reading stream.
      expect(Date.now() - started).toBeGreaterThan(IDLE_MS);
    });
  });
});
