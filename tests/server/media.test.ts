import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../server/lib/media-range';
import { startTestServer, type TestServer } from '../support/server';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { importFixtureFilm } from './support/seed';

describe('parseRange', () => {
  it.each([
    [undefined, 100, null],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=9-3', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, null],
    ['items=0-1', 100, null],
  ])('%s of %d bytes → %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describeEngines('media with HTTP Range', (engine) => {
  let server: TestServer;
  let video: string;
  let poster: string;
  let line: string;
  let size: number;
  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true });
    await importFixtureFilm(server);
    const c = client(server.url);
    await c.login('demo', 'demo123456');
    const d = (await c.postJson('/producer/active_relation_one/get_film_info', { id: 'test-film' })).body
      .data;
    video = `${server.url}/producer${d.video}`;
    poster = `${server.url}/producer${d.poster}`;
    line = `${server.url}/producer${d.subtitlesList[0].referenceAudio}`;
    size = (await server.app.storage.stat(d.video.replace('/media/', '')))!.size;
  });
  afterAll(() => server?.close());

  it('serves the whole video with Accept-Ranges and its length', async () => {
    const res = await fetch(video);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Number(res.headers.get('content-length'))).toBe(size);
    expect((await res.arrayBuffer()).byteLength).toBe(size);
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const full = Buffer.from(await (await fetch(video)).arrayBuffer());
    const res = await fetch(video, { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(res.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await res.arrayBuffer()).equals(full.subarray(100, 200))).toBe(true);
    const tail = await fetch(video, { headers: { range: 'bytes=-50' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(full.subarray(size - 50))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 and the size', async () => {
    const res = await fetch(video, { headers: { range: `bytes=${size}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('answers HEAD without a body and revalidates with ETag', async () => {
    const head = await fetch(video, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(size);
    const etag = head.headers.get('etag')!;
    const again = await fetch(video, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('serves posters and reference lines with caching headers and content types', async () => {
    const p = await fetch(poster);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('image/jpeg');
    expect(p.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const w = await fetch(line);
    expect(w.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await w.arrayBuffer());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    // 16 kHz mono 16-bit PCM (the analysis format).
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt16LE(34)).toBe(16);
  });

  it('answers 404 for missing media and refuses paths that leave the media folder', async () => {
    const missing = await fetch(`${server.url}/producer/media/films/none.mp4`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: number }).code).toBe(404);
    const escaping = await fetch(`${server.url}/producer/media/..%2f..%2fapp.sqlite`);
    expect(escaping.status).toBe(404);
    const dotted = await fetch(`${server.url}/producer/media/films/%2e%2e/%2e%2e/app.sqlite`);
    expect(dotted.status).toBe(404);
  });
});
