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
 * that is not the envelope) and the codes that mean one thing are worded here. A server message
 * with no row is shown as sent when it is in the learner's language (see `serverSentence`).
 */
export function errorText(e: unknown, l: Lang = lang.value): string {
  if (!(e instanceof ApiError)) return word('error.default', l);
  const named = namedRow(e);
  if (named) return word(named.id, l, named.values);
  return serverSentence(e, l) ?? word(errorId(e) ?? 'error.default', l);
}

/** Chinese characters or punctuation (CJK symbols, kana, ideographs, full-width forms). */
const CJK = /[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * The server's own `msg`, worded in the language the request asked for (docs/api.md, "Words in the
 * learner's language"), so it says more than a row chosen by code. Not in English when it holds
 * Chinese: the client's own stand-ins (src/api/errors.ts: no msg, 1002) and a server that could not
 * read the request's language are Chinese.
 */
function serverSentence(e: ApiError, l: Lang): string | null {
  if (e.reason !== 'server' || !e.msg.trim()) return null;
  if (l === 'en' && CJK.test(e.msg)) return null;
  return e.msg;
}
