import { beforeEach, describe, expect, test } from 'vitest';
import { request } from '../../../src/api/request';
import { setRawCookie, fixtureServerForFile } from './fixture-server';

const server = fixtureServerForFile();
beforeEach(() => server.reset());

describe('the request wrapper encodes data per method (src/api/README.md)', () => {
  test('GET sends data as query parameters under /producer and no body', async () => {
    await request({
      method: 'GET',
      path: '/site_products/get_wx_login_status',
      data: { uuid: 'u-1', wait: 20000 },
    });
    const seen = server.last();
    expect(seen.method).toBe('GET');
    expect(seen.url.pathname).toBe('/producer/site_products/get_wx_login_status');
    expect(seen.url.searchParams.get('uuid')).toBe('u-1');
    expect(seen.url.searchParams.get('wait')).toBe('20000');
    expect(seen.body.length).toBe(0);
  });

  test('POST with the JSON content type sends a JSON body', async () => {
    const data = { filmId: 'f1', answers: [{ questionId: 'q1', value: ['a', 'b'] }] };
    await request({ method: 'POST', path: '/active_relation_one/save_question_record', body: 'json', data });
    const seen = server.last();
    expect(seen.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(seen.body.toString('utf8'))).toEqual(data);
  });

  test('a JSON content-type header alone also selects JSON', async () => {
    await request({
      method: 'POST',
      path: '/x',
      data: { a: 1 },
      headers: { 'Content-Type': 'application/json' },
    });
    expect(JSON.parse(server.last().body.toString('utf8'))).toEqual({ a: 1 });
  });

  test('POST without JSON sends a form-encoded string', async () => {
    await request({
      method: 'POST',
      path: '/active_relation_one/show_film_picture',
      body: 'form',
      data: { page: 2, q: 'a b&c' },
    });
    const seen = server.last();
    expect(seen.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(seen.body.toString('utf8')).toBe('page=2&q=a+b%26c');
  });

  test('files go as a multipart form with the file part', async () => {
    const file = new File([new Uint8Array([82, 73, 70, 70])], 's1.wav', { type: 'audio/wav' });
    await request({
      method: 'POST',
      path: '/speech_emotion',
      origin: 'ai',
      body: 'multipart',
      data: { file, attempt: 1 },
    });
    const seen = server.last();
    expect(seen.url.pathname).toBe('/ai/speech_emotion');
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = seen.body.toString('latin1');
    expect(body).toContain('name="file"');
    expect(body).toContain('RIFF');
    expect(body).toMatch(/name="attempt"\r\n\r\n1\r\n/);
  });

  test('a Blob in a form-kind payload still goes multipart', async () => {
    await request({ method: 'POST', path: '/x', body: 'form', data: { file: new Blob(['abc']) } });
    expect(server.last().headers['content-type']).toMatch(/^multipart\/form-data/);
  });

  test('an upload followed for progress goes the same way, told when it starts and when it is done', async () => {
    const progress: Array<number | null> = [];
    const data = await request<{ ok: boolean }>({
      method: 'POST',
      path: '/speech_emotion',
      origin: 'ai',
      body: 'multipart',
      data: { file: new Blob(['abc']) },
      onUploadProgress: (p) => progress.push(p.fraction),
    });
    expect(data).toBeNull();
    expect(progress).toEqual([null, 1]);
    const seen = server.last();
    expect(seen.url.pathname).toBe('/ai/speech_emotion');
    expect(seen.url.searchParams.has('_v')).toBe(true);
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data/);
  });
});

describe('_v timestamp and credentials', () => {
  test('every method carries a numeric _v query parameter that changes over time', async () => {
    for (const method of ['GET', 'POST']) {
      await request({ method, path: '/x', data: { a: 1 } });
      const v = Number(server.last().url.searchParams.get('_v'));
      expect(Number.isInteger(v)).toBe(true);
      expect(Math.abs(v - Date.now())).toBeLessThan(60_000);
    }
  });

  test('no cookies are sent (credentials omitted)', async () => {
    setRawCookie('user-token=secret-token; path=/');
    setRawCookie('other=1; path=/');
    await request({ method: 'GET', path: '/x' });
    expect(server.last().headers.cookie).toBeUndefined();
    setRawCookie('user-token=; max-age=0; path=/');
    setRawCookie('other=; max-age=0; path=/');
  });
});

describe('AI origin base', () => {
  test('run-time __APP_CONFIG__.aiBase overrides the default /ai', async () => {
    window.__APP_CONFIG__ = { aiBase: `${server.origin}/scoring/` };
    try {
      await request({ method: 'POST', path: '/speech_emotion', origin: 'ai', data: { a: 1 } });
      expect(server.last().url.pathname).toBe('/scoring/speech_emotion');
    } finally {
      window.__APP_CONFIG__ = undefined;
    }
  });
});
