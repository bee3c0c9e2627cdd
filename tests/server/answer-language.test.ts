import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrUrlData } from '../../src/api/contract';
import { SERVER_CATALOGUE } from '../../src/i18n/server-text';
import { startTestServer, type TestServer } from '../support/server';
import { client } from './support/http';

const LOGIN = '/producer/site_products/login_pwd';
const CJK = /[\u3400-\u9fff]/;
const EN = { 'accept-language': 'en-US,en;q=0.9' };

/**
 * The services word every answer in the language the request asks for (server/lib/words.ts):
 * `?lang=`, else Accept-Language (the app's request wrapper sends the learner's choice), else Chinese.
 */
describe("the server answers in the request's language", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seedDemo: true });
  });
  afterAll(() => server?.close());

  it("a refused field: Chinese by default, English when asked, the schema's own message included", async () => {
    const http = client(server.url);
    const zh = await http.send('POST', LOGIN, { json: { account: '', password: 'x' } });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe('参数错误：account 请输入账号');
    expect(zh.body.data.issues[0]).toEqual({ path: 'account', message: '请输入账号' });

    const en = await http.send('POST', LOGIN, { json: { account: '', password: 'x' }, headers: EN });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe(`invalid account: ${SERVER_CATALOGUE.en['input.enterAccount']}`);
    expect(en.body.data).toEqual({
      field: 'account',
      issues: [{ path: 'account', message: SERVER_CATALOGUE.en['input.enterAccount'] }],
    });
  });

  it('a problem zod finds is worded in either language, with its bound', async () => {
    const http = client(server.url);
    const body = { account: 'a'.repeat(65), password: 'x' };
    const zh = await http.send('POST', LOGIN, { json: body });
    expect(zh.body.msg).toBe('参数错误：account 最多 64 个字符');
    const en = await http.send('POST', LOGIN, { json: body, headers: EN });
    expect(en.body.msg).toBe('invalid account: at most 64 characters');
  });

  it('success and refusal messages follow the language', async () => {
    const http = client(server.url);
    const ok = await http.send('POST', LOGIN, {
      json: { account: 'demo', password: 'demo123456' },
      headers: EN,
    });
    expect(ok.body).toMatchObject({ code: 200, msg: 'Signed in' });
    const wrong = await http.send('POST', LOGIN, {
      json: { account: 'demo', password: 'wrong-password' },
      headers: EN,
    });
    expect(wrong.body).toEqual({ code: 1001, msg: 'Wrong account or password', data: null });
    const missing = await http.get('/producer/films/no-such-call', undefined, EN);
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('not found: GET /producer/films/no-such-call');
    const zhMissing = await http.get('/producer/films/no-such-call');
    expect(zhMissing.body.msg).toBe('接口不存在：GET /producer/films/no-such-call');
  });

  it('`?lang=` wins over Accept-Language (a link the kiosk made)', async () => {
    const media = await fetch(`${server.url}/producer/media/films/none.mp4?lang=zh`, { headers: EN });
    expect(media.status).toBe(404);
    expect(((await media.json()) as { msg: string }).msg).toBe('媒体文件不存在');
    const en = await fetch(`${server.url}/producer/media/films/none.mp4`, { headers: EN });
    expect(((await en.json()) as { msg: string }).msg).toBe('media not found');
  });

  it('the QR sign-in page speaks one language, and its forms post back in it', async () => {
    const qr = await client(server.url).get('/producer/site_products/qr_url');
    const link = new URL(qrUrlData.parse(qr.body.data).url);
    const uuid = link.searchParams.get('uuid') as string;
    const english = new URL(link);
    english.searchParams.set('lang', 'en');
    const en = await (await fetch(english, { headers: { 'accept-language': 'zh-CN' } })).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Confirm sign-in on your computer');
    // One language, but for the switch's way back, which names Chinese in Chinese.
    expect(en.replace('>中文</a>', '></a>')).not.toMatch(CJK);
    expect(en).toContain('action="/producer/h5/qr/confirm?lang=en"');

    // A wrong password, posted from the English page, is answered on the English page.
    const wrong = await fetch(`${server.url}/producer/h5/qr/confirm?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ uuid, account: 'demo', password: 'wrong-password' }).toString(),
    });
    const page = await wrong.text();
    expect(page).toContain('Wrong account or password');
    expect(page).not.toMatch(CJK);

    const zh = await (await fetch(link)).text();
    expect(zh).toContain('确认登录电脑端');
    expect(zh).not.toContain('Confirm sign-in');
  });

  it("the QR code's link carries the kiosk's language; the phone's page names the product, says what confirming does, and switches language", async () => {
    const qr = await client(server.url).get('/producer/site_products/qr_url', {}, EN);
    const link = new URL(qrUrlData.parse(qr.body.data).url);
    expect(link.searchParams.get('lang')).toBe('en');
    // A phone set to Chinese opens it: the page speaks the kiosk's English.
    const en = await (await fetch(link, { headers: { 'accept-language': 'zh-CN' } })).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('<span class="brand">Film Speech Trainer</span>');
    expect(en).toContain(
      'The computer that showed this code is waiting to sign in to Film Speech Trainer. When you confirm here',
    );
    const uuid = link.searchParams.get('uuid') as string;
    expect(en).toContain(
      `<a href="/producer/h5/qr?uuid=${uuid}&amp;lang=zh" lang="zh-CN" hreflang="zh-CN">中文</a>`,
    );
    // "Stay signed in": the box inside its label, with its words.
    expect(en).toMatch(
      /<label class="check"><input type="checkbox" name="keep" value="1"><span>Stay signed in on this phone[^<]*<\/span><\/label>/,
    );
    const zhKiosk = await client(server.url).get('/producer/site_products/qr_url');
    expect(new URL(qrUrlData.parse(zhKiosk.body.data).url).searchParams.get('lang')).toBe('zh');
  });
});
