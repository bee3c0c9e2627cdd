import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '../../server/auth/users';
import { type ConfigError, loadConfig } from '../../server/config';
import { FsMediaStorage } from '../../server/storage/fs-storage';
import type { MediaStorage } from '../../server/storage/media-storage';
import { S3MediaStorage } from '../../server/storage/s3-storage';
import { type S3TestServer, startS3Server } from '../support/s3-server';
import { startTestServer, type TestServer } from '../support/server';
import { fixtureWav, postTake, seedAiFilm } from './ai-support';
import { describeEngines } from './support/engines';
import { client } from './support/http';
import { importFixtureFilm } from './support/seed';

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function s3Storage(prefix: string): S3MediaStorage {
  const config = loadConfig({ ...s3.env, S3_PREFIX: prefix });
  if (config.storage.kind !== 's3') throw new Error('S3 settings did not select the S3 store');
  return new S3MediaStorage(config.storage);
}

describe.each(['fs', 's3'] as const)('MediaStorage contract (%s)', (kind) => {
  let storage: MediaStorage;
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-store-'));
    storage = kind === 'fs' ? new FsMediaStorage(dir) : s3Storage(`contract-${Date.now()}`);
  });
  afterAll(() => {
    storage.close?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers its health check', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('stores bytes and streams, reads them whole and by byte range', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await storage.put(
      'films/f1/v1/video.mp4',
      Readable.from([bytes.subarray(0, 30_000), bytes.subarray(30_000)]),
    );
    await storage.put('films/f1/v1/lines/1.wav', Buffer.from('RIFF-line'));
    expect((await storage.stat('films/f1/v1/video.mp4'))?.size).toBe(bytes.length);
    expect((await storage.get('films/f1/v1/video.mp4')).equals(bytes)).toBe(true);
    const part = await readAll(storage.stream('films/f1/v1/video.mp4', { start: 65_000, end: 69_999 }));
    expect(part.equals(bytes.subarray(65_000, 70_000))).toBe(true);
    expect((await readAll(storage.stream('films/f1/v1/lines/1.wav'))).toString()).toBe('RIFF-line');
  });

  it('says null for a missing key, deletes one key and a whole prefix only', async () => {
    expect(await storage.stat('films/none.mp4')).toBeNull();
    await storage.put('films/f2/v1/a.wav', Buffer.from('a'));
    await storage.put('films/f2/v1/b.wav', Buffer.from('b'));
    await storage.put('films/f2b/v1/c.wav', Buffer.from('c'));
    await storage.delete('films/f2/v1/a.wav');
    expect(await storage.stat('films/f2/v1/a.wav')).toBeNull();
    await storage.deletePrefix('films/f2/');
    expect(await storage.stat('films/f2/v1/b.wav')).toBeNull();
    // A sibling whose name starts the same is not under the prefix.
    expect((await storage.stat('films/f2b/v1/c.wav'))?.size).toBe(1);
  });

  it('refuses keys that could leave the store', async () => {
    await expect(storage.put('../escape.wav', Buffer.from('x'))).rejects.toThrow(/Unsafe media key/);
    expect(() => storage.url('films/../../x')).toThrow(/Unsafe media key/);
    expect(storage.url('films/a/b.mp4')).toBe('/media/films/a/b.mp4');
  });
});

// Whole-object writes are S3's own guarantee; the test server (s3rver) writes into the object's file
// in place, so only the disk store's write-then-rename is ours to prove.
describe('FsMediaStorage', () => {
  it('takes writes of one key at once and keeps one of them whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-store-'));
    const storage = new FsMediaStorage(dir);
    try {
      const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(40_000 + i * 1000, i + 1));
      await Promise.all(versions.map((v) => storage.put('takes/u1/t1.wav', v)));
      const stored = await storage.get('takes/u1/t1.wav');
      expect(versions.some((v) => stored.equals(v))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('S3 settings', () => {
  const base = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
  it('reads the store from STORAGE_URL or S3_BUCKET, path style by default with an endpoint', () => {
    expect(loadConfig({ ...base, STORAGE_URL: 's3://media-bucket/site-a' }).storage).toMatchObject({
      kind: 's3',
      bucket: 'media-bucket',
      prefix: 'site-a/',
      forcePathStyle: true,
    });
    expect(loadConfig({ S3_BUCKET: 'media-bucket' }).storage).toMatchObject({
      kind: 's3',
      forcePathStyle: false,
    });
    expect(loadConfig({ STORAGE_URL: 'file:///srv/media' }).storage).toEqual({
      kind: 'fs',
      root: '/srv/media',
    });
    expect(loadConfig({ DATA_DIR: '/srv/app' }).storage).toEqual({ kind: 'fs', root: '/srv/app/media' });
  });

  it('lists what is wrong with the S3 settings', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k' })[0]).toMatch(/go together/);
    expect(problems({ MEDIA_DELIVERY: 'presigned' })[0]).toMatch(/presigned needs an S3 store/);
    expect(problems({ STORAGE_URL: 's3://bucket-a/x', S3_BUCKET: 'bucket-b' })[0]).toMatch(
      /names bucket bucket-a/,
    );
    expect(problems({ STORAGE_URL: 'ftp://x' })[0]).toMatch(/^STORAGE_URL: must be file/);
    expect(problems({ S3_BUCKET: 'Bad_Bucket' })[0]).toMatch(/^S3_BUCKET: must be an S3 bucket name/);
  });
});

describeEngines('the app on S3 storage', (engine) => {
  let server: TestServer;
  let presigned: TestServer;
  let videoUrl: string;
  let videoKey: string;
  const prefix = `app-${engine}-${Date.now()}`;

  beforeAll(async () => {
    server = await startTestServer({ engine, seedDemo: true, env: { ...s3.env, S3_PREFIX: prefix } });
    await importFixtureFilm(server);
    await seedAiFilm(server.app);
    const c = client(server.url);
    await c.login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password);
    const film = (await c.postJson('/producer/active_relation_one/get_film_info', { id: 'test-film' })).body
      .data;
    videoUrl = film.video;
    videoKey = film.video.replace('/media/', '');
    presigned = await startTestServer({
      engine,
      env: { ...s3.env, S3_PREFIX: prefix, MEDIA_DELIVERY: 'presigned', MEDIA_URL_TTL_SECONDS: '120' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await presigned?.close();
  });

  it('imports film media into the bucket, none onto the local disk', async () => {
    expect(server.app.storage.kind).toBe('s3');
    const direct = s3Storage(prefix);
    expect((await direct.stat(videoKey))?.size).toBeGreaterThan(10_000);
    direct.close();
    expect(fs.existsSync(path.join(server.config.dataDir, 'media'))).toBe(false);
  });

  it('serves a byte range of a video from the bucket through the app', async () => {
    const full = Buffer.from(await (await fetch(`${server.url}/producer${videoUrl}`)).arrayBuffer());
    const res = await fetch(`${server.url}/producer${videoUrl}`, { headers: { range: 'bytes=1000-1999' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 1000-1999/${full.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(full.subarray(1000, 2000))).toBe(true);
  });

  it('with MEDIA_DELIVERY=presigned redirects to a short-lived link that honours Range', async () => {
    const res = await fetch(`${presigned.url}/producer${videoUrl}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
    const ranged = await fetch(location, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-type')).toBe('video/mp4');
    const viaApp = await fetch(`${server.url}/producer${videoUrl}`, { headers: { range: 'bytes=0-99' } });
    expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(await viaApp.arrayBuffer()))).toBe(
      true,
    );
    const missing = await fetch(`${presigned.url}/producer/media/films/none/video.mp4`, {
      redirect: 'manual',
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: number }).code).toBe(404);
  });

  it('stores a scored take in the bucket', async () => {
    const me = await client(server.url).login(DEMO_ACCOUNT.account, DEMO_ACCOUNT.password);
    const wav = fixtureWav('15a01Wa.wav');
    const { body } = await postTake(server.url, me.token, { file: wav, takeId: `s3-take-${engine}` });
    expect(body.code).toBe(200);
    const key = (body.data.audioUrl as string).split('?')[0].replace('/media/', '');
    expect((await server.app.storage.get(key)).equals(Buffer.from(wav))).toBe(true);
  });
});
