import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '../../src/api/contract';
import { fail } from './reply';
import { sayTo } from './words';

/**
 * Bounds on media streams sent at the same time, per client address and per token (a session token
 * or a share link's token), counted in this process. A video element seeks with Range requests one
 * or two at a time and drops the ones it no longer needs, so playback stays well inside the bounds,
 * while a script that opens hundreds of full downloads gets 429 beyond them. A stream's slot is
 * given back when its response closes (finished or aborted).
 */
export class StreamSlots {
  private readonly held = new Map<string, number>();

  /** One slot under each key, or none (null) when any key is at its limit. */
  take(keys: Array<[key: string, limit: number]>): (() => void) | null {
    if (keys.some(([key, limit]) => (this.held.get(key) ?? 0) >= limit)) return null;
    for (const [key] of keys) this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [key] of keys) {
        const n = (this.held.get(key) ?? 1) - 1;
        if (n <= 0) this.held.delete(key);
        else this.held.set(key, n);
      }
    };
  }

  /** Streams held now under `key` (tests and logs). */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }
}

/** One set of slots per HTTP server, shared by every route that streams media. */
const slotsByServer = new WeakMap<object, StreamSlots>();
export function mediaSlots(app: FastifyInstance): StreamSlots {
  let slots = slotsByServer.get(app.server);
  if (!slots) {
    slots = new StreamSlots();
    slotsByServer.set(app.server, slots);
  }
  return slots;
}

/**
 * Takes a stream slot for this request (its address, and `token` when it carries one) and gives it
 * back when the response closes; false after answering 429 when a bound is reached.
 */
export function holdStreamSlot(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string | null,
): boolean {
  const keys: Array<[string, number]> = [[`ip:${request.ip}`, app.config.mediaStreamsPerIp]];
  if (token) {
    const id = crypto.createHash('sha256').update(token).digest('hex').slice(0, 32);
    keys.push([`token:${id}`, app.config.mediaStreamsPerToken]);
  }
  const release = mediaSlots(app).take(keys);
  if (!release) {
    // The route may have described the media already; the refusal is the JSON envelope instead.
    for (const h of [
      'content-length',
      'content-range',
      'content-type',
      'etag',
      'last-modified',
      'accept-ranges',
    ])
      reply.removeHeader(h);
    reply
      .code(429)
      .header('cache-control', 'no-store')
      .header('retry-after', '2')
      .send(fail(Code.RATE_LIMITED, sayTo(request, 'media.tooManyStreams')));
    return false;
  }
  reply.raw.once('close', release);
  return true;
}
