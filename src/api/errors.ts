/**
 * The request wrapper's messages (docs/api.md, "Errors"): the contract's Chinese text, verbatim;
 * `ApiError.reason` lets code tell the rows apart without string matching, and the page words them in
 * the learner's language from the shared catalogue (src/app/i18n/error-text.ts). src/api imports
 * nothing outside itself, so these few strings also stand in src/i18n/errors.ts.
 */
export const MSG_LOGIN_EXPIRED = '登录信息已失效';
export const MSG_NO_RESPONSE = '网络异常，请检查您的网络设置';
export const MSG_UNPARSEABLE_500 = '服务器异常，请稍后再试';
export const MSG_UNPARSEABLE_OTHER = '网络异常，请稍后再试';
export const MSG_DEFAULT = '服务器异常，请稍后再试!';
/** Not in the catalogue: a call the caller itself cancelled is not an error to show. */
export const MSG_ABORTED = '请求已取消';

/**
 * - `network`: no response or an empty one (includes the 60 s timeout, see `timedOut`)
 * - `unparseable`: a body that is not the `{code, msg, data}` envelope
 * - `server`: an envelope whose code is not 200 (1002 included)
 * - `aborted`: cancelled by the caller's AbortSignal
 */
export type ApiErrorReason = 'network' | 'unparseable' | 'server' | 'aborted';

export interface ApiErrorInit {
  code: number;
  msg: string;
  data?: unknown;
  reason: ApiErrorReason;
  status?: number;
  timedOut?: boolean;
}

/** Client-side codes for rows that have no server code (the server never sends these). */
export const CLIENT_CODE = { NO_RESPONSE: 0, ABORTED: -1 } as const;

export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly data: unknown;
  readonly reason: ApiErrorReason;
  /** HTTP status when a response arrived, else 0. */
  readonly status: number;
  readonly timedOut: boolean;

  constructor(init: ApiErrorInit) {
    super(init.msg);
    this.name = 'ApiError';
    this.code = init.code;
    this.msg = init.msg;
    this.data = init.data ?? null;
    this.reason = init.reason;
    this.status = init.status ?? 0;
    this.timedOut = init.timedOut ?? false;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
export const isAbortError = (e: unknown): boolean => isApiError(e) && e.reason === 'aborted';

/** The message to show a person for any thrown value (user actions show it, loaders only log it). */
export function errorMessage(e: unknown): string {
  if (isApiError(e)) return e.msg;
  return MSG_DEFAULT;
}
