import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, MediaStorage } from '../storage/media-storage';

export type RangeResult = ByteRange | 'unsatisfiable' | null;

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

/**
 * Sends a stored object's bytes once the caller has set its type and caching headers: the one range
 * asked for (206 with `content-range`), else the whole object; a HEAD request gets the headers only.
 */
export function sendStoredBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Pick<MediaStorage, 'stream'>,
  key: string,
  size: number,
  range: ByteRange | null,
): FastifyReply {
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
    return request.method === 'HEAD' ? reply.send() : reply.send(storage.stream(key, range));
  }
  reply.header('content-length', size);
  return request.method === 'HEAD' ? reply.send() : reply.send(storage.stream(key));
}
