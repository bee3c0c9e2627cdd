import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { fail } from '../lib/reply';

export interface NotFoundOptions {
  /** Folder of the built SPA (dist/). When set, unknown GETs outside the services get index.html. */
  spaRoot?: string;
}

const SERVICE_PREFIXES = ['/producer', '/ai'];

/**
 * Unknown service routes answer the envelope with code 404; any other GET that asks for HTML gets
 * the SPA's index.html (history fallback) so client-side routes survive a reload.
 */
export const notFoundPlugin = fp(
  async (app: FastifyInstance, opts: NotFoundOptions) => {
    const indexFile = opts.spaRoot ? path.join(opts.spaRoot, 'index.html') : null;
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0];
      const isService = SERVICE_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
      const isGet = request.method === 'GET' || request.method === 'HEAD';
      // A missing file with an extension (/assets/x.js) stays a 404 so a stale chunk fails loudly.
      const looksLikeFile = /\.[a-z0-9]+$/i.test(pathname);
      if (indexFile && isGet && !isService && !looksLikeFile && fs.existsSync(indexFile)) {
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(fs.createReadStream(indexFile));
      }
      return reply
        .code(404)
        .send(fail(Code.NOT_FOUND, `接口不存在 (not found): ${request.method} ${pathname}`));
    });
  },
  { name: 'app-not-found' },
);
