import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the request was refused (the envelope's code and message), for its log line. */
    refusal: { code: number; reason: string } | null;
    /** clientAddress's answer, once asked. */
    clientAddress: string | null;
  }
}

/**
 * The client's address (Fastify's `request.ip`), worked out once per request: behind a trusted
 * proxy each `request.ip` parses X-Forwarded-For and the socket's address again, and the rate
 * limit, the log line and the routes with limits of their own (sign-in, media streams) all ask for it.
 */
export function clientAddress(request: FastifyRequest): string {
  request.clientAddress ??= request.ip;
  return request.clientAddress;
}

/** What an incoming request id may look like: nginx's $request_id (32 hex), UUIDs, other tracers' ids. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request id: the one the balancer sent in X-Request-Id when it is well formed, so one id
 * follows a request from nginx through whichever instance served it; otherwise a new UUID (a
 * header of any other shape could forge or break log lines).
 */
export function acceptRequestId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const id = Array.isArray(header) ? header[0] : header;
  return id && REQUEST_ID.test(id) ? id : crypto.randomUUID();
}

interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  user?: string;
  code?: number;
  reason?: string;
  err?: Error;
}

/**
 * Fastify's request logging, as one structured line per request written when the answer has been
 * sent (instead of an "incoming" and a "completed" line): request id (pino's `reqId`), instance
 * (the logger's base), method, path, status, duration, client address, the learner when signed in,
 * and the envelope's code and message when the request was refused.
 */
export class RequestLogController extends LogController {
  incomingRequest(): void {}

  requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const url = request.url;
    const query = url.indexOf('?');
    // Built field by field, without spreads or a split array: one object per request.
    const line: RequestLine = {
      method: request.method,
      path: query === -1 ? url : url.slice(0, query),
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: clientAddress(request),
    };
    if (request.user) line.user = request.user.id;
    if (request.refusal) {
      line.code = request.refusal.code;
      line.reason = request.refusal.reason;
    }
    if (error) line.err = error;
    if (status >= 500 || error) request.log.error(line, 'request');
    else request.log.info(line, 'request');
  }
}

/** Sends the request id back in X-Request-Id, so a person can quote it and the logs find it. */
export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('refusal', null);
    app.decorateRequest('clientAddress', null);
    // A callback hook, not an async one: no promise and no microtask per request
    // (docs/performance.md, "The film list against its floor").
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'app-request-log' },
);
