import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '../../src/api/contract';
import { clientAddress } from '../plugins/request-log';
import { fail } from './reply';
import { sayTo } from './words';

/** What the slots need to know of a stream: how long it has waited on its client, and how to end it. */
export interface SlotStream {
  /** Milliseconds the stream has been waiting for its client to take bytes already sent (0: not waiting). */
  waitingMs(now: number): number;
  /** Ends the stream; its slot is given back at once. */
  end(): void;
}

interface Held {
  keys: string[];
  stream: SlotStream;
  release: () => void;
}

/**
 * Bounds on media streams sent at the same time, per client address and per token (a session token
 * or a share link's token), counted in this process. A video element seeks with Range requests one
 * or two at a time and drops the ones it no longer needs, so playback stays well inside the bounds,
 * while a script that opens hundreds of full downloads gets 429 beyond them.
 *
 * Only streams that are being read hold their slot: a stream that has waited `stalledMs` for its
 * client to take more bytes gives its slot to the next stream asking under the same key (it is
 * ended), so a client that opens downloads and never reads them cannot shut out everyone behind its
 * address. A stream's slot is given back when its response closes (finished, aborted or ended).
 */
export class StreamSlots {
  private readonly held = new Map<string, Set<Held>>();

  constructor(private readonly stalledMs: number) {}

  /** One slot under each key, or none (null) when a key is at its limit with no stalled stream to end. */
  take(keys: Array<[key: string, limit: number]>, stream: SlotStream): (() => void) | null {
    const now = Date.now();
    const toEnd = new Set<Held>();
    for (const [key, limit] of keys) {
      const streams = [...(this.held.get(key) ?? [])].filter((h) => !toEnd.has(h));
      if (streams.length < limit) continue;
      // The stream that has waited longest on its client, if it has waited past the bound.
      let stalled: Held | null = null;
      let longest = this.stalledMs;
      for (const h of streams) {
        const waited = h.stream.waitingMs(now);
        if (waited >= longest) {
          stalled = h;
          longest = waited;
        }
      }
      if (!stalled) return null;
      toEnd.add(stalled);
    }
    for (const h of toEnd) {
      h.release();
      h.stream.end();
    }
    const entry: Held = { keys: keys.map(([key]) => key), stream, release: () => {} };
    for (const key of entry.keys) {
      let set = this.held.get(key);
      if (!set) {
        set = new Set();
        this.held.set(key, set);
      }
      set.add(entry);
    }
    let released = false;
    entry.release = () => {
      if (released) return;
      released = true;
      for (const key of entry.keys) {
        const set = this.held.get(key);
        set?.delete(entry);
        if (set?.size === 0) this.held.delete(key);
      }
    };
    return entry.release;
  }

  /** Streams held now under `key` (tests and logs). */
  count(key: string): number {
    return this.held.get(key)?.size ?? 0;
  }

  /** Streams under `key` that have waited past the bound and would give their slot up (tests and logs). */
  stalled(key: string): number {
    const now = Date.now();
    return [...(this.held.get(key) ?? [])].filter((h) => h.stream.waitingMs(now) >= this.stalledMs).length;
  }
}

/** One set of slots per HTTP server, shared by every route that streams media. */
const slotsByServer = new WeakMap<object, StreamSlots>();
export function mediaSlots(app: FastifyInstance): StreamSlots {
  let slots = slotsByServer.get(app.server);
  if (!slots) {
    slots = new StreamSlots(app.config.mediaStalledMs);
    slotsByServer.set(app.server, slots);
  }
  return slots;
}

/**
 * A response as the slots see it. It waits on its client while a write has not drained (Node's
 * `writableNeedDrain`); the wait is counted from the last drain or the start, whichever is later.
 * A response that has waited `idleMs` is ended. (Node's own socket timeout is no bound here: it
 * lets a stalled write run one more period whenever the write queue moved in the last one.)
 */
function responseStream(res: ServerResponse, idleMs: number): SlotStream {
  let lastDrain = Date.now();
  const waitingMs = (now: number) => (res.writableNeedDrain ? now - lastDrain : 0);
  const idle = setTimeout(function check() {
    const waited = waitingMs(Date.now());
    if (waited >= idleMs) endResponse(res);
    else idle.refresh();
  }, idleMs);
  idle.unref();
  res.on('drain', () => {
    lastDrain = Date.now();
    idle.refresh();
  });
  res.once('close', () => clearTimeout(idle));
  return { waitingMs, end: () => endResponse(res) };
}

/**
 * Closes a response's connection with a reset, so the bytes its client never took are dropped at
 * once instead of lingering in the kernel's send buffer.
 */
function endResponse(res: ServerResponse): void {
  if (res.socket && !res.socket.destroyed) res.socket.resetAndDestroy();
  else res.destroy();
}

/**
 * Takes a stream slot for this request (its address, and `token` when it carries one) and gives it
 * back when the response closes; false after answering 429 when a bound is reached. The response is
 * ended when a write has waited `MEDIA_IDLE_MS` for its client (a slow reader drains now and then,
 * and keeps its stream).
 */
export function holdStreamSlot(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string | null,
): boolean {
  const keys: Array<[string, number]> = [[`ip:${clientAddress(request)}`, app.config.mediaStreamsPerIp]];
  if (token) {
    const id = crypto.createHash('sha256').update(token).digest('hex').slice(0, 32);
    keys.push([`token:${id}`, app.config.mediaStreamsPerToken]);
  }
  const stream = responseStream(reply.raw, app.config.mediaIdleMs);
  const release = mediaSlots(app).take(keys, stream);
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
