import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '../../../src/api/contract';
import { fail } from '../../lib/reply';
import { findSessionUser } from '../../auth/sessions';
import { requestToken } from '../../plugins/auth';
import { checkTakeLink, isTakeKey, takeLinkSecret, takeOwner } from '../../takes/audio-links';
import { isSafeKey } from '../../storage/media-storage';
import { cacheControlFor, contentTypeOf } from '../../storage/media-types';

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

/**
 * Take audio is private (server/takes/audio-links.ts): a link signed by the server and not yet
 * expired, or the owner's own token. Anyone else gets the same 404 as a missing file, so take ids
 * cannot be probed; an expired link says so, since its holder was once allowed.
 */
async function takeAccess(app: FastifyInstance, request: FastifyRequest, key: string) {
  const link = checkTakeLink(await takeLinkSecret(app.db), key, request.query as Record<string, unknown>);
  if (link === 'ok') return 'ok';
  const token = requestToken(request);
  const user = token ? await findSessionUser(app.db, token) : null;
  if (user && user.id === takeOwner(key)) return 'ok';
  return link === 'expired' ? 'expired' : 'denied';
}

/** GET/HEAD /producer/media/<key>: any stored medium, with Range support for seeking in videos. */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    config: { rateLimit: false },
    // Media are compressed in their own formats; byte ranges count the stored bytes.
    compress: false,
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isSafeKey(key)) return notFound(reply);
      if (isTakeKey(key)) {
        const access = await takeAccess(app, request, key);
        if (access === 'denied') return notFound(reply);
        if (access === 'expired') {
          return reply
            .code(403)
            .send(
              fail(
                Code.FORBIDDEN,
                '录音链接已过期，请刷新页面 (this recording link has expired; reload the page)',
              ),
            );
        }
      }
      const stat = await app.storage.stat(key);
      if (!stat) return notFound(reply);
      if (app.config.mediaDelivery === 'presigned') {
        // The browser fetches the bytes (and its Range requests) from the store itself; the
        // short-lived link is made per request, after the checks above.
        const signed = await app.storage.signedUrl(key, app.config.mediaUrlTtlSeconds);
        if (signed) return reply.header('cache-control', 'no-store').redirect(signed, 302);
      }

      const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', contentTypeOf(key))
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
