import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { AppError } from '../lib/app-error';
import { fail } from '../lib/reply';

interface Mapped {
  status: number;
  code: number;
  msg: string;
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
      msg: '上传请求缺少 multipart 分隔符 (boundary)，请让浏览器或 FormData 自动设置 Content-Type (multipart/form-data without a boundary)',
      data,
    };
  }
  return {
    status: 400,
    code: Code.BAD_REQUEST,
    msg: `上传请求体不完整或分隔符 (boundary) 不符，请重新上传 (malformed multipart body: ${err.message})`,
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
      return { status: 413, code: Code.PAYLOAD_TOO_LARGE, msg: '上传内容过大 (payload too large)' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        status: 415,
        code: Code.UNSUPPORTED_MEDIA,
        msg: '不支持的内容类型 (unsupported content type)',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: Code.BAD_REQUEST, msg: '请求体不是有效的 JSON (invalid JSON body)' };
  }
  if (status === 429) return { status, code: Code.RATE_LIMITED, msg: err.message };
  if (status === 413)
    return { status, code: Code.PAYLOAD_TOO_LARGE, msg: '上传内容过大 (payload too large)' };
  if (status === 415)
    return { status, code: Code.UNSUPPORTED_MEDIA, msg: '不支持的内容类型 (unsupported content type)' };
  if (status === 503) return { status, code: Code.BUSY, msg: '服务器繁忙，请稍后再试 (server busy)' };
  // The static files' refusals (a path outside the root, a hidden file) keep their status as code.
  if (status === 403) return { status, code: Code.FORBIDDEN, msg: '禁止访问该路径 (forbidden)' };
  if (status === 404) return { status, code: Code.NOT_FOUND, msg: '内容不存在 (not found)' };
  if (status >= 400 && status < 500)
    return { status, code: Code.BAD_REQUEST, msg: `请求无效 (${err.message})` };
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
      if (err instanceof AppError) {
        request.refusal = { code: err.code, reason: err.message };
        return reply.code(err.httpStatus).send(fail(err.code, err.message, err.data));
      }
      const mapped = fromFastifyError(err);
      if (mapped) {
        request.refusal = { code: mapped.code, reason: err.message };
        return reply.code(mapped.status).send(fail(mapped.code, mapped.msg, mapped.data));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(500).send(fail(Code.SERVER_ERROR, '服务器异常，请稍后再试'));
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
          '网址无效，无法解析，请检查链接 (malformed URL: percent-encoding does not decode)',
        ),
      );
    return;
  }
  request.log.error({ err }, 'framework error');
  reply.code(500).send(fail(Code.SERVER_ERROR, '服务器异常，请稍后再试'));
}

/**
 * A request Node cannot parse as HTTP (bad header bytes, a header block over the limit, a client too
 * slow to send its headers) never reaches Fastify: answered here as an envelope, like Fastify's own
 * default handler (fastify.js defaultClientErrorHandler) but in the house format.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body = fail(Code.BAD_REQUEST, '请求格式无效 (malformed HTTP request)');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = fail(408, '请求超时，请重试 (request timeout)');
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = fail(431, '请求头过大 (request headers too large)');
  }
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}
