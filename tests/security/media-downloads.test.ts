import http from 'node:http';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { mediaSlots } from '../../server/lib/stream-slots';
import { describeEngines } from '../server/support/engines';
import { importFixtureFilm, seedSharedDub } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Media downloads are bounded: one address (or one share link) cannot hold hundreds of full
 * downloads open at once, while a player's Range requests, one or two at a time, all play.
 */
const BIG = 'films/big-download/video.mp4';
// Larger than loopback socket buffers take in at once, so an unread download stays open.
const SIZE = 32 * 1024 * 1024;
const PER_IP = 48;
const PER_TOKEN = 8;

describeEngines('media downloads are bounded per address and per token', (engine) => {
  let server: TestServer;
  let dubUrl: string;
  beforeAll(async () => {
    // Streams here are young (a burst opens them all at once): none has waited long enough on its
    // client to give its slot up (stalled-streams.test.ts tests that), so the bounds show as such.
    server = await startTestServer({ engine, env: { MEDIA_STALLED_MS: '600000' } });
    await server.app.storage.put(BIG, Buffer.alloc(SIZE, 7));
    // A shared run with a ready dubbed video.
    await importFixtureFilm(server);
    const { dubPath } = await seedSharedDub(server, 'sharer', Buffer.alloc(SIZE, 9));
    dubUrl = `${server.url}${dubPath}`;
  });
  afterAll(() => server?.close());

  /** Opens n downloads at once, each on its own connection, and keeps the bodies unread (open). */
  async function burst(url: string, n: number) {
    const answers = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<{ res: http.IncomingMessage; req: http.ClientRequest }>((resolve, reject) => {
            const req = http.get(url, { agent: false }, (res) => resolve({ res, req }));
            req.on('error', reject);
          }),
      ),
    );
    const served = answers.filter((a) => a.res.statusCode === 200);
    const refused = answers.filter((a) => a.res.statusCode === 429);
    for (const { res } of refused) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      expect(body.code).toBe(429);
      expect(body.msg).toBe('同时进行的媒体下载过多，请稍后再试');
      expect(res.headers['retry-after']).toBe('2');
    }
    // Ending a download the way a closed tab does: the connection goes away.
    return {
      served,
      refused,
      close: () => {
        for (const a of served) a.req.destroy();
      },
    };
  }
  const allReleased = () =>
    vi.waitFor(() => expect(mediaSlots(server.app).count('ip:127.0.0.1')).toBe(0), { timeout: 10_000 });

  it('200 parallel full downloads from one address: 48 are served, the rest get 429 until they end', async () => {
    const { served, refused, close } = await burst(`${server.url}/producer/media/${BIG}`, 200);
    expect(served).toHaveLength(PER_IP);
    expect(refused).toHaveLength(200 - PER_IP);
    close();
    await allReleased();
    // Ended downloads give their slots back: the next one is served in full.
    const again = await fetch(`${server.url}/producer/media/${BIG}`);
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(SIZE);
  });

  it('a player seeking with Range requests, two at a time, is served every one', async () => {
    await allReleased();
    const chunk = 64 * 1024;
    for (let i = 0; i < 60; i += 2) {
      const pair = await Promise.all(
        [i, i + 1].map(async (k) => {
          const start = (k * 37 * chunk) % (SIZE - chunk);
          const res = await fetch(`${server.url}/producer/media/${BIG}`, {
            headers: { range: `bytes=${start}-${start + chunk - 1}` },
          });
          return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
        }),
      );
      for (const p of pair) expect(p).toEqual({ status: 206, bytes: chunk });
    }
  });

  it('one share link: 8 parallel downloads of its dubbed video, the rest 429; Range still plays', async () => {
    await allReleased();
    const { served, refused, close } = await burst(dubUrl, 30);
    expect(served).toHaveLength(PER_TOKEN);
    expect(refused).toHaveLength(30 - PER_TOKEN);
    close();
    await allReleased();
    const range = await fetch(dubUrl, { headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(100);
  });
});
