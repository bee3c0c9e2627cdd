/**
 * Figures for docs/security.md (stalled media streams), with the service's default bounds
 * (MEDIA_STALLED_MS 2 s, MEDIA_IDLE_MS 20 s): one client opens 48 GETs of a 20 MB film video and
 * never reads them; the same address then asks for the poster and three Range pieces of the video.
 * Prints how long the classmate waited (asking every 50 ms; 429 until the streams count as stalled)
 * and how many unread streams the server had closed by then and after MEDIA_IDLE_MS.
 *
 *   npx tsx tests/security/probe-stalled-streams.ts
 */
import http from 'node:http';
import { mediaSlots } from '../../server/lib/stream-slots';
import { importFixtureFilm } from '../server/support/seed';
import { startTestServer } from '../support/server';

const UNREAD = 48;
const server = await startTestServer({ engine: 'sqlite' });
try {
  await importFixtureFilm(server);
  const film = await server.app.db
    .selectFrom('films')
    .select(['poster_key', 'video_key'])
    .where('id', '=', 'test-film')
    .executeTakeFirstOrThrow();
  await server.app.storage.put(film.video_key, Buffer.alloc(20 * 1024 * 1024, 5));
  const video = `${server.url}/producer/media/${film.video_key}`;
  const poster = `${server.url}/producer/media/${film.poster_key}`;

  const unread = await Promise.all(
    Array.from(
      { length: UNREAD },
      () =>
        new Promise<http.ClientRequest>((resolve) => {
          const req = http.get(video, { agent: false }, () => resolve(req));
        }),
    ),
  );
  const opened = Date.now();
  let refused = 0;
  for (;;) {
    const res = await fetch(poster);
    await res.arrayBuffer();
    if (res.status === 200) break;
    refused += 1;
    await new Promise((r) => setTimeout(r, 50));
  }
  const posterMs = Date.now() - opened;
  const ranges: number[] = [];
  for (const start of [0, 8_000_000, 16_000_000]) {
    const res = await fetch(video, { headers: { range: `bytes=${start}-${start + 65_535}` } });
    await res.arrayBuffer();
    ranges.push(res.status);
  }
  const heldAfterPlay = mediaSlots(server.app).count('ip:127.0.0.1');
  const idleDeadline = Date.now() + server.config.mediaIdleMs + 5_000;
  while (mediaSlots(server.app).count('ip:127.0.0.1') > 0 && Date.now() < idleDeadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const idleMs = Date.now() - opened;
  console.log(
    `${UNREAD} unread GETs of a 20 MB video: the same address got its poster after ${posterMs} ms ` +
      `(${refused} × 429 first; MEDIA_STALLED_MS ${server.config.mediaStalledMs}), Range pieces ${ranges.join('/')}; ` +
      `streams held after playing ${heldAfterPlay}; all ${UNREAD} closed by the server after ${idleMs} ms ` +
      `(MEDIA_IDLE_MS ${server.config.mediaIdleMs}; still held: ${mediaSlots(server.app).count('ip:127.0.0.1')})`,
  );
  for (const req of unread) req.destroy();
} finally {
  await server.close();
}
