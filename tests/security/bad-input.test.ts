import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_FILM, fixtureWav, LINES, postTake, seedAiFilm } from '../server/ai-support';
import { describeEngines } from '../server/support/engines';
import { type AnyEnvelope, client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

// docs/api.md, "Conventions" and docs/security.md: hostile or sloppy input answers 4xx with a reason a person can act
// on, Chinese first, inside the {code, msg, data} envelope, on both engines; never a 500.

const P2 = '/producer/active_relation_two';
/** Chinese before any English in brackets. */
const CHINESE_FIRST = /^[^(]*[\u4e00-\u9fff]/;

async function learner(server: TestServer, account: string) {
  await addUser(server.app.db, account, 'learner-pass');
  const c = client(server.url);
  const { token } = await c.login(account, 'learner-pass');
  return { token, c };
}

async function raw(url: string, init: RequestInit = {}): Promise<{ status: number; body: AnyEnvelope }> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as AnyEnvelope };
  } catch {
    throw new Error(`HTTP ${res.status} is not the JSON envelope: ${text.slice(0, 200)}`);
  }
}

/** The fixture take with one header field rewritten. */
function patched(offset: number, bytes: 2 | 4, value: number): Uint8Array {
  const wav = fixtureWav('15a01Wa.wav');
  const v = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  if (bytes === 2) v.setUint16(offset, value, true);
  else v.setUint32(offset, value, true);
  return wav;
}

describeEngines('bad input stays 4xx', (engine) => {
  let server: TestServer;
  let token: string;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await seedAiFilm(server.app);
    ({ token, c } = await learner(server, 'hostile'));
  });
  afterAll(() => server?.close());

  describe('wav headers that lie (12.5, 12.10)', () => {
    it.each([
      ['block align 1 for 16-bit mono', patched(32, 2, 1)],
      [
        'block align 2 for 16-bit stereo',
        (() => {
          const w = patched(22, 2, 2); // 2 channels, block align still 2
          return w;
        })(),
      ],
    ])('%s → 400 bad_header, not a RangeError', async (_name, wav) => {
      const res = await postTake(server.url, token, { file: wav });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.data.reason).toBe('bad_header');
      expect(res.body.msg).toMatch(CHINESE_FIRST);
      expect(res.body.msg).toContain('blockAlign');
    });

    it('a fmt chunk cut short → 415 not_wav', async () => {
      const res = await postTake(server.url, token, { file: fixtureWav('15a01Wa.wav').subarray(0, 30) });
      expect(res.status).toBe(415);
      expect(res.body.data.reason).toBe('not_wav');
    });

    it.each([
      ['0', 0],
      ['0xFFFFFFFF', 0xffffffff],
    ])('a data size of %s (streaming writers) is read to the end of the file and scored', async (n, size) => {
      // Two new learners, so neither score is coloured by the other take in the running statistics.
      const a = await learner(server, `whole-${n}`);
      const b = await learner(server, `streamed-${n}`);
      const whole = await postTake(server.url, a.token, { subtitlesId: LINES.neutral });
      const streamed = await postTake(server.url, b.token, {
        file: patched(40, 4, size),
        subtitlesId: LINES.neutral,
      });
      expect(streamed.body.code).toBe(200);
      expect(streamed.body.data.overall).toBe(whole.body.data.overall);
      expect(streamed.body.data.prosody.learner.durationMs).toBe(whole.body.data.prosody.learner.durationMs);
    });
  });

  describe('NUL characters (12.6)', () => {
    const NUL = 'a\u0000b';
    const expectNul = (res: { status: number; body: AnyEnvelope }, field: string) => {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.data.field).toBe(field);
      expect(res.body.msg).toContain('NUL');
    };

    it('in a query string', async () => {
      expectNul(await c.get(`${P2}/get_info_by_id`, { filmId: NUL }), 'filmId');
      expectNul(await c.get(`${P2}/get_run_history`, { filmId: NUL }), 'filmId');
    });

    it('in a JSON body, at any depth', async () => {
      expectNul(await c.postJson(`${P2}/save_question_record`, { filmId: NUL, answers: [] }), 'filmId');
      const deep = await c.postJson(`${P2}/save_question_record`, {
        filmId: AI_FILM,
        answers: [{ questionId: 'q1', value: ['x', NUL] }],
      });
      expectNul(deep, 'answers.0.value.1');
      expectNul(
        await c.postJson('/producer/site_products/login_pwd', { account: NUL, password: 'x' }),
        'account',
      );
    });

    it('in a form body', async () => {
      expectNul(await c.postForm(`${P2}/get_film_info`, { id: NUL }), 'id');
    });

    it('in a multipart field of a take', async () => {
      expectNul(await postTake(server.url, token, { filmId: NUL }), 'filmId');
      expectNul(await postTake(server.url, token, { takeId: `take-${NUL}-0000` }), 'takeId');
    });

    it('in a path: media keys and the phone pages', async () => {
      expectNul(await raw(`${server.url}/producer/media/takes/x%00y.wav`, { headers: { token } }), 'path');
      expectNul(await raw(`${server.url}/producer/h5/report/abc%00def`), 'token');
      expectNul(await raw(`${server.url}/producer/h5/qr?uuid=${'a'.repeat(31)}%00`), 'uuid');
    });
  });
});

describe('malformed multipart (12.5)', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    await seedAiFilm(server.app);
    ({ token } = await learner(server, 'multipart'));
  });
  afterAll(() => server?.close());

  const part = (boundary: string, tail: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="attempt"\r\n\r\n1\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF....WAVE${tail}`;

  it.each([
    ['without a boundary', 'multipart/form-data', part('b0', '\r\n--b0--\r\n')],
    ['with another boundary', 'multipart/form-data; boundary=zz', part('b1', '\r\n--b1--\r\n')],
    ['unterminated', 'multipart/form-data; boundary=b2', part('b2', '')],
    ['with a boundary over 256 bytes', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'x'],
    ['empty', 'multipart/form-data; boundary=b3', ''],
  ])('%s → 400 bad_multipart with a reason', async (_name, type, body) => {
    const res = await raw(`${server.url}/ai/speech_emotion`, {
      method: 'POST',
      headers: { token, 'content-type': type },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(CHINESE_FIRST);
    expect(['bad_multipart', undefined]).toContain(res.body.data?.reason);
    expect(res.body.msg.length).toBeGreaterThan(10);
  });
});

describe('messages a person can act on (12.10)', () => {
  let server: TestServer;
  let token: string;
  let c: ReturnType<typeof client>;
  let spaRoot: string;
  beforeAll(async () => {
    spaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-'));
    fs.writeFileSync(path.join(spaRoot, 'index.html'), '<!doctype html><title>app</title>');
    server = await startTestServer({ spaRoot });
    await seedAiFilm(server.app);
    ({ token, c } = await learner(server, 'messages'));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(spaRoot, { recursive: true, force: true });
  });

  it('a take without attempt names the field, Chinese first, without NaN', async () => {
    const form = new FormData();
    form.set('filmId', AI_FILM);
    form.set('subtitlesId', LINES.angry);
    form.set('file', new Blob([fixtureWav('15a01Wa.wav')]), 'a.wav');
    const res = await raw(`${server.url}/ai/speech_emotion`, {
      method: 'POST',
      headers: { token },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^参数错误：attempt [\u4e00-\u9fff]/);
    expect(res.body.msg).not.toMatch(/NaN|expected/);
    expect(res.body.data.field).toBe('attempt');
  });

  it('an out-of-range number is told the allowed range, not the safe-integer limit', async () => {
    const res = await c.postJson(`${P2}/save_question_record`, {
      filmId: AI_FILM,
      answers: [],
      durationMs: 1e20,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('86400000');
    expect(res.body.msg).not.toContain('9007199254740991');
    expect(res.body.data.issues).toHaveLength(1);
  });

  it.each([
    ['a word where a number goes', () => c.get(`${P2}/show_film_picture`, { page: 'abc' }), 'page'],
    ['a list too long', () => c.get(`${P2}/get_run_history`, { filmId: AI_FILM, limit: '1000' }), 'limit'],
    [
      'a wrong type in JSON',
      () => c.postJson(`${P2}/save_question_record`, { filmId: 5, answers: [] }),
      'filmId',
    ],
  ])('validation text is Chinese first: %s', async (_name, call, field) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(new RegExp(`^参数错误：${field} [\\u4e00-\\u9fff]`));
    expect(res.body.msg).not.toMatch(/Invalid input|Too big|Too small/);
  });

  it('a URL that does not decode (FST_ERR_BAD_URL) answers the envelope', async () => {
    for (const p of ['/producer/%E0%A4%A', '/%c0', '/ai/%zz']) {
      const res = await raw(server.url + p);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, msg: expect.stringMatching(CHINESE_FIRST), data: null });
    }
  });

  it('a request Node cannot parse as HTTP answers the envelope', async () => {
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /producer/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n');
      });
      let text = '';
      socket.on('data', (c) => {
        text += c.toString('utf8');
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ code: 400, msg: expect.stringMatching(CHINESE_FIRST), data: null });
  });

  it("a static file refusal keeps its status as the envelope's code", async () => {
    const res = await raw(`${server.url}/..%5c..%5cpackage.json`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(403);
    expect(res.body.msg).toMatch(CHINESE_FIRST);
  });
});
