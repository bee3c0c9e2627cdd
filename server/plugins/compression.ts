import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * br or gzip, as the request's Accept-Encoding prefers, for answers of a compressible type (JSON,
 * HTML, text, scripts: the `compressible` types of mime-db; never images, audio or video) above the
 * threshold, with `Vary: Accept-Encoding`. A streamed answer has no size to compare and is
 * compressed whatever its size: the media routes opt out (`compress: false`, for Range), and the
 * client's files carry their build-time copies (server/plugins/spa.ts), so only its files under
 * 1 KB are compressed here. Registered before the routes: it hooks each route as it is added.
 * Request bodies are taken as sent (no client compresses them), so no upload is inflated here.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, {
      threshold: COMPRESS_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
      globalDecompression: false,
    });
  },
  { name: 'app-compression' },
);
