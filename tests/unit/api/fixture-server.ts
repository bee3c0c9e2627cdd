import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One request as the server saw it, for tests to assert what went over the wire. */
export interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/**
 * A real HTTP server on 127.0.0.1 for the request-wrapper tests (happy-dom's fetch and XHR reach it).
 * The page is moved to the server's origin, so relative `/producer/...` URLs hit it with no CORS.
 */
export async function startFixtureServer() {
  const server = fixtureServer();
  await server.listen();
  return server;
}

/**
 * The fixture server of a test file: listening and the page moved to it (at `path`) before the file's
 * tests, closed after them. Call it at the top of the file, before hooks that use it.
 */
export function fixtureServerForFile(path = '/') {
  const server = fixtureServer();
  beforeAll(async () => {
    await server.listen();
    movePageTo(server.origin, path);
  });
  afterAll(() => server.close());
  return server;
}

/** The server, not yet listening: `origin` is known once `listen` has resolved. */
function fixtureServer() {
  const seen: Seen[] = [];
  let handler: Handler = (_req, res) => json(res, { code: 200, msg: 'ok', data: null });
  let origin = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(s);
      handler(s, res);
    });
  });
  return {
    get origin() {
      return origin;
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    seen,
    last: () => seen[seen.length - 1],
    handle(h: Handler) {
      handler = h;
    },
    /** Resolves once the server has seen `n` requests, without touching (possibly fake) timers. */
    async waitForRequests(n: number) {
      while (seen.length < n) await new Promise((resolve) => setImmediate(resolve));
    },
    reset() {
      seen.length = 0;
      handler = (_req, res) => json(res, { code: 200, msg: 'ok', data: null });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FixtureServer = ReturnType<typeof fixtureServer>;

export function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function text(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}

/** Points the happy-dom page at the server so relative URLs and cookies belong to its origin. */
export function movePageTo(origin: string, path = '/'): void {
  const w = window as unknown as { happyDOM?: { setURL(url: string): void } };
  if (!w.happyDOM) throw new Error('These tests need the happy-dom environment (window.happyDOM).');
  w.happyDOM.setURL(origin + path);
}

/** Writes a raw cookie as any page script could (the token tests need odd values such as `undefined`). */
export function setRawCookie(raw: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: tests must write raw, even malformed, cookies.
  document.cookie = raw;
}
