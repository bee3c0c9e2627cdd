import type { FastifyInstance, FastifyReply } from 'fastify';
import { Code } from '../../../src/api/contract';
import { fail } from '../../lib/reply';
import { isSafeKey } from '../../storage/media-storage';

const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'text/plain; charset=utf-8',
};

/**
 * Film media sit under a per-import version prefix, so their URLs change with their content and
 * may be cached for long; learners' takes are private to the browser that made them.
 */
function cacheControlFor(key: string): string {
  if (key.startsWith('takes/')) return 'private, max-age=3600';
  if (key.startsWith('films/')) return 'public, max-age=604800';
  return 'public, max-age=3600';
}

export type RangeResult = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * Parses a single `bytes=` range (RFC 9110 §14.1.2). null means "send the whole file" (no header, a
 * multi-range or another unit); 'unsatisfiable' answers 416.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a, b] = m;
  if (a === '' && b === '') return 'unsatisfiable';
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const notFound = (reply: FastifyReply) =>
  reply.code(404).send(fail(Code.NOT_FOUND, '媒体文件不存在 (media not found)'));

/** GET/HEAD /producer/media/<key>: any stored medium, with Range support for seeking in videos. */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    config: { rateLimit: false },
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isSafeKey(key)) return notFound(reply);
      const stat = await app.storage.stat(key);
      if (!stat) return notFound(reply);

      const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      const ext = key.split('.').pop()?.toLowerCase() ?? '';
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', TYPES[ext] ?? 'application/octet-stream')
        .header('cache-control', cacheControlFor(key))
        .header('etag', etag)
        .header('last-modified', new Date(stat.mtimeMs).toUTCString());
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();

      // If-Range: a stale validator means the client's partial copy is outdated: send it all.
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, stat.size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${stat.size}`)
          .header('content-type', 'application/json; charset=utf-8')
          .send(fail(Code.BAD_REQUEST, '请求的字节范围无效 (range not satisfiable)'));
      }
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
          .header('content-length', range.end - range.start + 1);
        return request.method === 'HEAD' ? reply.send() : reply.send(app.storage.stream(key, range));
      }
      reply.header('content-length', stat.size);
      return request.method === 'HEAD' ? reply.send() : reply.send(app.storage.stream(key));
    },
  });
}
