import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built client (dist/). Hashed assets are cached for a year; index.html is never cached.
 * Unknown client routes fall back to index.html in the not-found plugin. A file's `.br` or `.gz`
 * copy written by the build (scripts/precompress.ts) goes to a browser that accepts it, with
 * Content-Encoding and `Vary: Accept-Encoding`; the file itself to any other.
 */
export async function spaPlugin(app: FastifyInstance, opts: { root: string }): Promise<void> {
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: true,
    index: ['index.html'],
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}
