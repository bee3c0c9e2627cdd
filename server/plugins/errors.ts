import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { AppError } from '../lib/app-error';
import { fail } from '../lib/reply';

/** Maps Fastify's own error codes to an envelope a person can read. */
function fromFastifyError(err: FastifyError): { status: number; code: number; msg: string } | null {
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
      if (err instanceof AppError) {
        request.log.info({ code: err.code, msg: err.message }, 'request refused');
        return reply.code(err.httpStatus).send(fail(err.code, err.message, err.data));
      }
      const mapped = fromFastifyError(err);
      if (mapped) {
        request.log.info({ err: err.message, code: mapped.code }, 'request refused');
        return reply.code(mapped.status).send(fail(mapped.code, mapped.msg));
      }
      request.log.error({ err }, 'unhandled error');
      return reply.code(500).send(fail(Code.SERVER_ERROR, '服务器异常，请稍后再试'));
    });
  },
  { name: 'app-errors' },
);
