import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

// docs/security.md: the pages say what they may load and that nobody may frame them; no answer is sniffed.

let server: TestServer;
let spaRoot: string;
beforeAll(async () => {
  spaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-'));
  fs.mkdirSync(path.join(spaRoot, 'assets'));
  fs.writeFileSync(path.join(spaRoot, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(spaRoot, 'assets', 'main.js'), 'export {};');
  server = await startTestServer({ spaRoot });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(spaRoot, { recursive: true, force: true });
});

const directives = (csp: string | null) =>
  new Map(
    (csp ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

it.each([
  ['the index', '/'],
  ['a client route (history fallback)', '/prpt/movies'],
])('the SPA page (%s) carries its policy, nosniff and no framing', async (_name, url) => {
  const res = await fetch(server.url + url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  // The WASM SIMD kernel (src/audio/dsp/dot.ts) compiles; no eval, no inline script.
  expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  // Recordings play from blob: URLs, QR codes are data: images.
  expect(csp.get('media-src')).toContain('blob:');
  // "Watch my dub" fetches the takes this page recorded (blob: URLs) to mix them.
  expect(csp.get('connect-src')).toEqual(["'self'", 'blob:']);
  expect(csp.get('img-src')).toContain('data:');
});

it('the phone pages carry a script-free policy, no framing and no Referer', async () => {
  const res = await fetch(`${server.url}/producer/h5/qr?uuid=0123456789abcdef0123456789abcdef`);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'none'"]);
  expect(csp.has('script-src')).toBe(false);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
});

it.each([
  ['a JSON answer', '/producer/health'],
  ['an error answer', '/producer/nothing-here'],
  ['a static asset', '/assets/main.js'],
])('%s is never sniffed', async (_name, url) => {
  const res = await fetch(server.url + url);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});
