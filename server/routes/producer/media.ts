import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '../../../src/api/contract';
import { parseRange, sendStoredBytes } from '../../lib/media-range';
import { fail } from '../../lib/reply';
import { sayTo } from '../../lib/words';
import { holdStreamSlot } from '../../lib/stream-slots';
import { findSessionUser } from '../../auth/sessions';
import { requestToken } from '../../plugins/auth';
import { checkTakeLink, isTakeKey, takeLinkSecret, takeOwner } from '../../takes/audio-links';
import { isSafeKey } from '../../storage/media-storage';
import { cacheControlFor, contentTypeOf } from '../../storage/media-types';

const notFound = (request: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send(fail(Code.NOT_FOUND, sayTo(request, 'media.notFound')));

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
    // A page loads many media (posters, each line's audio, Range requests of the video): a request
    // budget of its own, ten times the general one; streams at once are bounded in the handler.
    config: { rateLimit: { max: app.config.rateLimitPerMinute * 10, timeWindow: '1 minute' } },
    // Media are compressed in their own formats; byte ranges count the stored bytes.
    compress: false,
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isSafeKey(key)) return notFound(request, reply);
      if (isTakeKey(key)) {
        const access = await takeAccess(app, request, key);
        if (access === 'denied') return notFound(request, reply);
        if (access === 'expired') {
          return reply.code(403).send(fail(Code.FORBIDDEN, sayTo(request, 'media.linkExpired')));
        }
      }
      const stat = await app.storage.stat(key);
      if (!stat) return notFound(request, reply);
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
          .send(fail(Code.BAD_REQUEST, sayTo(request, 'media.badRange')));
      }
      // A slot per stream, taken before any header is set, so a refusal is a clean 429.
      if (request.method !== 'HEAD' && !holdStreamSlot(app, request, reply, requestToken(request)))
        return reply;
      return sendStoredBytes(request, reply, app.storage, key, stat.size, range);
    },
  });
}
