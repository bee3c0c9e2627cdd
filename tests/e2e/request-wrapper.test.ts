import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../support/browser';

// The request wrapper in real Chromium (what happy-dom cannot show): no cookies sent, uploads
// included (src/api/README.md), the token header, multipart from a real Blob. The wrapper's source is
// served by Vite's dev server; a node backend stands in for the producer and AI services.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bytes: number;
}
const seen: Seen[] = [];

let backend: ReturnType<typeof createHttpServer>;
let vite: ViteDevServer;
let browser: Browser;
let page: Page;
let origin: string;
let target: string;

beforeAll(async () => {
  backend = createHttpServer((req, res) => {
    // CORS, for the test that puts the AI service on another origin (as a deployment may)
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'token, content-type, accept',
      'access-control-allow-methods': 'GET, POST',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes });
      res.writeHead(200, { 'content-type': 'application/json', ...cors });
      res.end(JSON.stringify({ code: 200, msg: 'ok', data: { bytes } }));
    });
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  target = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  vite = await createViteServer({
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, proxy: { '/producer': target, '/ai': target }, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await vite.listen();
  origin = (vite.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.addCookies([
    { name: 'user-token', value: 'tok-e2e', url: origin },
    { name: 'other', value: 'x', url: origin },
  ]);
  page = await context.newPage();
  await page.goto(`${origin}/index.html`);
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  await new Promise<void>((r) => (backend ? backend.close(() => r()) : r()));
});

test('a same-origin multipart upload with onUploadProgress reports progress and sends no cookies', async () => {
  const result = (await page.evaluate(`(async () => {
    const { request } = await import('/src/api/request.ts');
    const progress = [];
    const file = new File([new Uint8Array(2 * 1024 * 1024)], 's1.wav', { type: 'audio/wav' });
    const data = await request({
      method: 'POST', path: '/speech_emotion', origin: 'ai', body: 'multipart', data: { file },
      onUploadProgress: (p) => progress.push(p.fraction),
    });
    return { data, progress };
  })()`)) as { data: { bytes: number }; progress: (number | null)[] };
  expect(result.data.bytes).toBeGreaterThan(2 * 1024 * 1024);
  expect(result.progress).toEqual([null, 1]);
  const last = seen.at(-1)!;
  expect(last.url).toMatch(/^\/ai\/speech_emotion\?_v=\d+$/);
  expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(last.headers.token).toBe('tok-e2e');
  expect(last.headers.cookie).toBeUndefined();
});

test('with the AI service on another origin the upload sends no cookies', async () => {
  const data = await page.evaluate(`(async () => {
    window.__APP_CONFIG__ = { aiBase: ${JSON.stringify(`${target}/ai`)} };
    try {
      const { request } = await import('/src/api/request.ts');
      const file = new File([new Uint8Array(64 * 1024)], 's1.wav', { type: 'audio/wav' });
      return await request({
        method: 'POST', path: '/speech_emotion', origin: 'ai', body: 'multipart', data: { file },
        onUploadProgress: () => {},
      });
    } finally {
      window.__APP_CONFIG__ = undefined;
    }
  })()`);
  expect(data).toEqual({ bytes: expect.any(Number) });
  const last = seen.at(-1)!;
  expect(last.method).toBe('POST');
  expect(last.url).toMatch(/^\/ai\/speech_emotion\?_v=\d+$/);
  expect(last.headers.token).toBe('tok-e2e');
  expect(last.headers.cookie).toBeUndefined();
});

test('a fetch call sends the token header but no cookies', async () => {
  const data = await page.evaluate(`(async () => {
    const { request } = await import('/src/api/request.ts');
    return request({ method: 'GET', path: '/site_products/qr_url', data: { a: 1 } });
  })()`);
  expect(data).toEqual({ bytes: 0 });
  const last = seen.at(-1)!;
  expect(last.url).toMatch(/^\/producer\/site_products\/qr_url\?a=1&_v=\d+$/);
  expect(last.headers.token).toBe('tok-e2e');
  expect(last.headers.cookie).toBeUndefined();
});
