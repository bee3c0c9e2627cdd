import { ApiError } from '../../api/errors';
import { type ErrorId, errorText as word, isErrorId } from '../../i18n/errors';
import { type Lang, lang } from './index';

/** Codes whose meaning is the same whatever the call: worded by code when the answer names no row. */
const BY_CODE: Record<number, ErrorId> = {
  400: 'error.badRequest',
  403: 'error.forbidden',
  404: 'error.notFound',
  413: 'error.tooLarge',
  415: 'error.unsupportedMedia',
  500: 'error.server',
  503: 'error.busy',
  1001: 'error.badCredentials',
  1002: 'error.loginExpired',
};

/** The row the server's answer names (`data.msgId`), if any. */
function namedRow(e: ApiError): { id: ErrorId; values: Record<string, string | number> } | null {
  const data = e.data as { msgId?: unknown; msgValues?: Record<string, string | number> } | null;
  return isErrorId(data?.msgId) ? { id: data.msgId, values: data.msgValues ?? {} } : null;
}

/** The row of the shared error catalogue (src/i18n/errors.ts) a failure stands for, null when none fits. */
export function errorId(e: unknown): ErrorId | null {
  if (!(e instanceof ApiError)) return null;
  const named = namedRow(e);
  if (named) return named.id;
  if (e.reason === 'network') return 'error.network';
  if (e.reason === 'unparseable') return e.status === 500 ? 'error.server' : 'error.networkLater';
  if (e.reason === 'aborted') return 'error.aborted';
  return BY_CODE[e.code] ?? null;
}

/**
 * What to show a person for a failure, in their language. The server's answer names its row
 * (`data.msgId`, with `data.msgValues`); without one the client's own rows (no response, a body
 * that is not the envelope) and the codes that mean one thing are worded here. In Chinese a server
 * message with no row is shown as sent (the contract's catalogue: "uses the server's msg"); in
 * English it is never shown, since it is Chinese.
 */
export function errorText(e: unknown, l: Lang = lang.value): string {
  if (!(e instanceof ApiError)) return word('error.default', l);
  const named = namedRow(e);
  if (named) return word(named.id, l, named.values);
  if (l === 'zh' && e.reason === 'server' && e.msg) return e.msg;
  return word(errorId(e) ?? 'error.default', l);
}
