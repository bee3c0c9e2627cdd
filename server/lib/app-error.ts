import { Code } from '../../src/api/contract';
import type { Lang } from '../../src/i18n';
import { isErrorId } from '../../src/i18n/error-rows';
import { type Said, type SaidId, said, say } from './words';

/**
 * An error a person can act on: sent to the client as `{code, msg, data}` with a matching HTTP status.
 * `said` is what it says, worded in the request's language when it is sent (server/plugins/errors.ts);
 * the Error's own message, for the command-line tools and errors logged outside a request, holds
 * both languages.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly httpStatus: number = httpStatusFor(code),
    readonly data: unknown = null,
    readonly said: Said | null = null,
  ) {
    super(msg);
    this.name = 'AppError';
  }

  /** The answer's `msg` in a language. */
  msgIn(lang: Lang): string {
    return this.said ? say(this.said, lang) : this.message;
  }

  /** The answer's `data` in a language (the validation errors word their issues). */
  dataIn(_lang: Lang): unknown {
    return this.data;
  }
}

export function httpStatusFor(code: number): number {
  if (code === Code.BAD_CREDENTIALS || code === Code.LOGIN_EXPIRED) return 401;
  if (code >= 400 && code < 600) return code;
  return 200;
}

/** Both languages in one line, for logs and the command-line tools (`zh (en)`). */
export const bothLanguages = (s: Said): string => `${say(s, 'zh')} (${say(s, 'en')})`;

interface RefusalOptions {
  values?: Said['values'];
  data?: Record<string, unknown>;
  status?: number;
}

/**
 * An error that says a row of the shared catalogue, worded in the request's language. An error row
 * (src/i18n/errors.ts) is also named in `data.msgId` (with `data.msgValues`), so the client words it
 * in the learner's language whatever the request asked; used where the code alone does not say which
 * row (the 404s, 429). A server message (src/i18n/server-messages.ts) is worded by the server only.
 */
export function catalogueError(code: number, id: SaidId, opts: RefusalOptions = {}): AppError {
  const s = said(id, opts.values);
  const data = isErrorId(id)
    ? { ...opts.data, msgId: id, ...(opts.values ? { msgValues: opts.values } : {}) }
    : (opts.data ?? null);
  return new AppError(
    code,
    isErrorId(id) ? say(s, 'zh') : bothLanguages(s),
    opts.status ?? httpStatusFor(code),
    data,
    s,
  );
}

export const notFound = (id: SaidId = 'error.notFound') => catalogueError(Code.NOT_FOUND, id);

/** 1002: the code alone names the row (the client words it); the msg asks to log in again. */
export const loginExpired = () =>
  new AppError(
    Code.LOGIN_EXPIRED,
    say(said('error.loginAgain'), 'zh'),
    undefined,
    null,
    said('error.loginAgain'),
  );
