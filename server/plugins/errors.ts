import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { langFromAcceptLanguage } from '../../src/i18n';
import { AppError } from '../lib/app-error';
import { fail } from '../lib/reply';
import { requestLang, type Said, said, say } from '../lib/words';

interface Mapped {
  status: number;
  code: number;
  msg: Said;
  data?: unknown;
}

/**
 * busboy (under @fastify/multipart) throws plain errors, without a code or a status, for a body that
 * is not the multipart it claims to be: no boundary, another boundary, cut short, a boundary over
 * 256 bytes. They are recognised by where they were thrown.
 */
function malformedMultipart(err: Error): Mapped | null {
  if ((err as FastifyError).statusCode || (err as FastifyError).code) return null;
  const firstFrame = err.stack?.split('\n').find((l) => l.trimStart().startsWith('at ')) ?? '';
  if (!/[\\/]@fastify[\\/]busboy[\\/]/.test(firstFrame)) return null;
  const data = { field: 'file', reason: 'bad_multipart', detail: err.message };
  if (/boundary not found/i.test(err.message)) {
    return {
      status: 400,
      code: Code.BAD_REQUEST,
      msg: said('request.noBoundary'),
      data,
    };
  }
  return {
    status: 400,
    code: Code.BAD_REQUEST,
    msg: said('request.badMultipart'),
    data,
  };
}

/** Maps Fastify's own error codes to an envelope a person can read. */
function fromFastifyError(err: FastifyError): Mapped | null {
  const multipart = malformedMultipart(err);
  if (multipart) return multipart;
  const status = err.statusCode ?? 500;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, code: Code.PAYLOAD_TOO_LARGE, msg: said('error.tooLarge') };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, code: Code.UNSUPPORTED_MEDIA, msg: said('error.unsupportedMedia') };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: Code.BAD_REQUEST, msg: said('request.badJson') };
  }
  // Another 429 than the rate limiter's (which answers an AppError, server/app.ts): the request's pace.
  if (status === 429) return { status, code: Code.RATE_LIMITED, msg: said('error.busy') };
  if (status === 413) return { status, code: Code.PAYLOAD_TOO_LARGE, msg: said('error.tooLarge') };
  if (status === 415) return { status, code: Code.UNSUPPORTED_MEDIA, msg: said('error.unsupportedMedia') };
  if (status === 503) return { status, code: Code.BUSY, msg: said('error.busy') };
  // The static files' refusals (a path outside the root, a hidden file) keep their status as code.
  if (status === 403) return { status, code: Code.FORBIDDEN, msg: said('request.forbiddenPath') };
  if (status === 404) return { status, code: Code.NOT_FOUND, msg: said('error.notFound') };
  if (status >= 400 && status < 500)
    return { status, code: Code.BAD_REQUEST, msg: said('request.invalid', { detail: err.message }) };
  return null;
}

/**
 * Every answer is `{code, msg, data}`, errors included. Client errors are logged at info, server
 * errors with their stack at error; the client never sees a stack trace.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      // Refusals are part of the request's one log line (server/plugins/request-log.ts).
      const lang = requestLang(request);
      if (err instanceof AppError) {
        // The log line says what the learner was told, as they were told it.
        const msg = err.msgIn(lang);
        request.refusal = { code: err.code, reason: msg };
        return reply.code(err.httpStatus).send(fail(err.code, msg, err.dataIn(lang)));
      }
      const mapped = fromFastifyError(err);
      if (mapped) {
        request.refusal = { code: mapped.code, reason: err.message };
        return reply.code(mapped.status).send(fail(mapped.code, say(mapped.msg, lang), mapped.data));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(500).send(fail(Code.SERVER_ERROR, say(said('error.server'), lang)));
    });
  },
  { name: 'app-errors' },
);

/**
 * Fastify's router refuses a URL that does not decode (`/%E0%A4%A`) before any hook or the error
 * handler runs (FST_ERR_BAD_URL): the envelope here too (passed as the `frameworkErrors` option).
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    request.refusal = { code: Code.BAD_REQUEST, reason: err.message };
    reply
      .code(400)
      .send(
        fail(
          Code.BAD_REQUEST,
          say(said('request.badUrl'), langFromAcceptLanguage(request.headers['accept-language'])),
        ),
      );
    return;
  }
  request.log.error({ err }, 'framework error');
  reply
    .code(500)
    .send(
      fail(
        Code.SERVER_ERROR,
        say(said('error.server'), langFromAcceptLanguage(request.headers['accept-language'])),
      ),
    );
}

/**
 * A request Node cannot parse as HTTP (bad header bytes, a header block over the limit, a client too
 * slow to send its headers) never reaches Fastify: answered here as an envelope, like Fastify's own
 * default handler (fastify.js defaultClientErrorHandler) but in the house format. No header was
 * read, so the answer is in the catalogue's own language, Chinese.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body = fail(Code.BAD_REQUEST, say(said('request.malformed'), 'zh'));
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = fail(408, say(said('request.timeout'), 'zh'));
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = fail(431, say(said('request.headersTooLarge'), 'zh'));
  }
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}
