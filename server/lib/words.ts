/**
 * The server's answers in the learner's language. What a service says is a `Said` (a row of the
 * shared catalogue: an error row of src/i18n/errors.ts or a server message of
 * src/i18n/server-messages.ts, and its values), worded when the answer is sent, in the language the
 * request asks for.
 */
import type { FastifyRequest } from 'fastify';
import { type Lang, langFromAcceptLanguage } from '../../src/i18n';
import { type ErrorId, errorText, isErrorId } from '../../src/i18n/error-rows';
import type { Values } from '../../src/i18n/format';
import type { ServerMessageId } from '../../src/i18n/server-messages';
import { serverText } from '../../src/i18n/server-text';

export type SaidId = ErrorId | ServerMessageId;

/** A sentence to say, not yet in a language; a value may itself be one (a field's problem). */
export interface Said {
  id: SaidId;
  values?: Readonly<Record<string, string | number | Said>>;
}

export const said = (id: SaidId, values?: Said['values']): Said => (values ? { id, values } : { id });

/** A said sentence in a language: nested sentences are worded first. */
export function say(s: Said, lang: Lang): string {
  const values: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(s.values ?? {}))
    values[name] = typeof v === 'object' ? say(v, lang) : v;
  return isErrorId(s.id) ? errorText(s.id, lang, values) : serverText(s.id, lang, values as Values);
}

/**
 * The language a request asks for: `?lang=zh|en` (the link the kiosk shows on a QR code carries
 * it), else `Accept-Language` (the app's request wrapper sends the language the learner chose,
 * src/api/request.ts; a phone sends its own), else Chinese.
 */
export function requestLang(request: FastifyRequest): Lang {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  if (asked === 'zh' || asked === 'en') return asked;
  return langFromAcceptLanguage(request.headers['accept-language']);
}

/** A sentence in the language of the request it answers. */
export const sayTo = (request: FastifyRequest, id: SaidId, values?: Said['values']): string =>
  say(said(id, values), requestLang(request));
