import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { pickCoding } from '../../server/lib/accept-encoding';
import { COMPRESS_THRESHOLD_BYTES } from '../../server/plugins/compression';
import { startTestServer, type TestServer } from '../support/server';
import { client } from './support/http';
import { importFixtureFilm } from './support/seed';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with node:http, which (unlike fetch) neither sends an Accept-Encoding of its own nor
 * decodes the answer: the bytes on the wire are what the test reads.
 */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer =>
  r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.body)
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.body)
      : r.body;

const varies = (r: Raw) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('pickCoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['GZIP;Q=0.8', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(pickCoding(header, ['br', 'gzip'])).toBe(expected);
  });
});

describe('compression: the built client, API answers and media', () => {
  let server: TestServer;
  let spa: string;
  let entry: Buffer;
  let indexHtml: Buffer;
  let filmVideo: string;
  let filmSubtitles: string;
  let token: string;

  beforeAll(async () => {
    // A client folder made the way the build makes it: a real 600 KB script as the entry, a script
    // too small to be worth compressing, and the build step's .br / .gz copies beside them.
    spa = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-compress-spa-'));
    fs.mkdirSync(path.join(spa, 'assets'));
    entry = fs.readFileSync(path.resolve('node_modules/react-dom/cjs/react-dom-client.production.js'));
    fs.writeFileSync(path.join(spa, 'assets', 'index-abc123.js'), entry);
    fs.writeFileSync(path.join(spa, 'assets', 'tiny-abc123.js'), 'export const a = 1;\n');
    indexHtml = Buffer.from(
      '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>app</title>' +
        '<script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(path.join(spa, 'index.html'), indexHtml);
    await precompressDir(spa);

    server = await startTestServer({ seedDemo: true, spaRoot: spa });
    await importFixtureFilm(server);
    const c = client(server.url);
    token = (await c.login('demo', 'demo123456')).token;
    const detail = (await c.postJson('/producer/active_relation_one/get_film_info', { id: 'test-film' })).body
      .data;
    filmVideo = `${server.url}/producer${detail.video}`;
    // A text medium (subtitles), the kind a compressor would take if the media routes let it.
    const cues = Array.from(
      { length: 80 },
      (_, i) =>
        `${i + 1}\n00:00:${String(i % 60).padStart(2, '0')}.000 --> 00:00:${String(i % 60).padStart(2, '0')}.900\n台词 line ${i}\n`,
    );
    await server.app.storage.put(
      'films/compress-test/lines.vtt',
      Buffer.from(`WEBVTT\n\n${cues.join('\n')}`),
    );
    filmSubtitles = `${server.url}/producer/media/films/compress-test/lines.vtt`;
  });
  afterAll(async () => {
    await server?.close();
    if (spa) fs.rmSync(spa, { recursive: true, force: true });
  });

  it('the build writes br and gzip copies of the entry and the page, and none of a tiny script', () => {
    for (const ext of ['.br', '.gz']) {
      expect(fs.existsSync(path.join(spa, 'assets', `index-abc123.js${ext}`))).toBe(true);
      expect(fs.existsSync(path.join(spa, `index.html${ext}`))).toBe(true);
      expect(fs.existsSync(path.join(spa, 'assets', `tiny-abc123.js${ext}`))).toBe(false);
    }
  });

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=1', 'gzip'],
    ['', undefined],
    ['identity', undefined],
  ])(
    'serves the entry script to Accept-Encoding %j as %s, byte-identical once decoded',
    async (accept, coding) => {
      const res = await raw(
        `${server.url}/assets/index-abc123.js`,
        accept ? { 'accept-encoding': accept } : {},
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(res)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      if (coding) expect(res.body.length).toBeLessThan(entry.length / 3);
      else expect(res.body.length).toBe(entry.length);
      expect(decode(res).equals(entry)).toBe(true);
    },
  );

  it('answers HEAD with the headers of the same GET and no body', async () => {
    const get = await raw(`${server.url}/assets/index-abc123.js`, { 'accept-encoding': 'br' });
    const head = await raw(`${server.url}/assets/index-abc123.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('serves a byte range of the entry script from the bytes it names', async () => {
    const res = await raw(`${server.url}/assets/index-abc123.js`, { range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${entry.length}`);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(entry.subarray(100, 200))).toBe(true);
  });

  it('serves the page and every client route (history fallback) compressed, never cached', async () => {
    for (const route of ['/', '/prpt/movies', '/prpo/report/123']) {
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['', undefined],
      ] as const) {
        const res = await raw(`${server.url}${route}`, accept ? { 'accept-encoding': accept } : {});
        expect(res.status, route).toBe(200);
        expect(res.headers['content-type'], route).toMatch(/^text\/html/);
        expect(res.headers['content-encoding'], `${route} ${accept}`).toBe(coding);
        expect(res.headers['cache-control'], route).toBe('no-cache');
        expect(varies(res), route).toBe(true);
        expect(decode(res).equals(indexHtml), route).toBe(true);
      }
    }
  });

  it('serves a script without a build-time copy as asked, the same bytes once decoded', async () => {
    for (const coding of ['br', 'gzip', undefined]) {
      const res = await raw(
        `${server.url}/assets/tiny-abc123.js`,
        coding ? { 'accept-encoding': coding } : {},
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(varies(res)).toBe(true);
      expect(decode(res).toString()).toBe('export const a = 1;\n');
    }
  });

  it('compresses an API answer above the threshold, with the same envelope once decoded', async () => {
    const body = JSON.stringify({ id: 'test-film' });
    const post = (accept: string) =>
      new Promise<Raw>((resolve, reject) => {
        const req = http.request(
          `${server.url}/producer/active_relation_one/get_film_info`,
          {
            method: 'POST',
            headers: {
              token,
              'content-type': 'application/json',
              ...(accept ? { 'accept-encoding': accept } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const plain = await post('');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const envelope = JSON.parse(plain.body.toString());
    expect(envelope.code).toBe(200);
    for (const coding of ['br', 'gzip']) {
      const res = await post(coding);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(varies(res)).toBe(true);
      expect(res.body.length).toBeLessThan(plain.body.length);
      expect(JSON.parse(decode(res).toString())).toEqual(envelope);
    }
  });

  it('leaves an API answer under the threshold as it is', async () => {
    const res = await raw(`${server.url}/producer/no-such-call`, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).code).toBe(404);
  });

  it('never compresses media, whole or in ranges', async () => {
    const media = [filmVideo, filmSubtitles];
    expect(media.every(Boolean)).toBe(true);
    for (const url of media) {
      const whole = await raw(url, { 'accept-encoding': 'br, gzip' });
      expect(whole.status, url).toBe(200);
      expect(whole.headers['content-encoding'], url).toBeUndefined();
      expect(Number(whole.headers['content-length']), url).toBe(whole.body.length);
      const part = await raw(url, { 'accept-encoding': 'br, gzip', range: 'bytes=10-59' });
      expect(part.status, url).toBe(206);
      expect(part.headers['content-encoding'], url).toBeUndefined();
      expect(part.headers['content-range'], url).toBe(`bytes 10-59/${whole.body.length}`);
      expect(part.body.equals(whole.body.subarray(10, 60)), url).toBe(true);
    }
  });
});
