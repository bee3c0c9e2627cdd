import { Code } from '../../src/api/contract';
import { type ErrorId, errorText } from '../../src/i18n/errors';

/** An error a person can act on: sent to the client as `{code, msg, data}` with a matching HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly httpStatus: number = httpStatusFor(code),
    readonly data: unknown = null,
  ) {
    super(msg);
    this.name = 'AppError';
  }
}

export function httpStatusFor(code: number): number {
  if (code === Code.BAD_CREDENTIALS || code === Code.LOGIN_EXPIRED) return 401;
  if (code >= 400 && code < 600) return code;
  return 200;
}

/**
 * An error that names its row of the shared catalogue (src/i18n/errors.ts): `msg` is the row's
 * Chinese (the contract's), and `data.msgId` (with `data.msgValues`) lets the client word it in the
 * learner's language. Used where the code alone does not say which row (the 404s, 429).
 */
export function catalogueError(
  code: number,
  id: ErrorId,
  opts: { values?: Record<string, string | number>; data?: Record<string, unknown>; status?: number } = {},
): AppError {
  const data = { ...opts.data, msgId: id, ...(opts.values ? { msgValues: opts.values } : {}) };
  return new AppError(code, errorText(id, 'zh', opts.values), opts.status ?? httpStatusFor(code), data);
}

export const notFound = (id: ErrorId = 'error.notFound') => catalogueError(Code.NOT_FOUND, id);

/** 1002: the code alone names the row (the client words it); the msg asks to log in again. */
export const loginExpired = () => new AppError(Code.LOGIN_EXPIRED, errorText('error.loginAgain', 'zh'));
