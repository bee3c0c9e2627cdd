import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { CODING_SUFFIX, pickCoding } from '../lib/accept-encoding';
import { fail } from '../lib/reply';
import { sayTo } from '../lib/words';

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
        // The build's compressed copy when the browser takes it (scripts/precompress.ts), as the
        // static files are served (server/plugins/spa.ts).
        const offered = (['br', 'gzip'] as const).filter((c) => fs.existsSync(indexFile + CODING_SUFFIX[c]));
        const coding = pickCoding(request.headers['accept-encoding'], offered);
        if (coding) reply.header('content-encoding', coding);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('vary', 'accept-encoding')
          .send(fs.createReadStream(coding ? indexFile + CODING_SUFFIX[coding] : indexFile));
      }
      return reply
        .code(404)
        .send(
          fail(
            Code.NOT_FOUND,
            sayTo(request, 'request.noSuchCall', { method: request.method, path: pathname }),
          ),
        );
    });
  },
  { name: 'app-not-found' },
);
