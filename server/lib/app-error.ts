import { Code } from '../../src/api/contract';

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

export const notFound = (what = '内容') => new AppError(Code.NOT_FOUND, `${what}不存在 (not found)`);

export const loginExpired = () => new AppError(Code.LOGIN_EXPIRED, '登录信息已失效，请重新登录');
