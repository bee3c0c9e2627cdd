import type { FastifyRequest } from 'fastify';
import {
  type Fact,
  type FactValue,
  type Lang,
  langFromAcceptLanguage,
  type StatementId,
  word,
} from '../../src/i18n';

/** Words a statement of the shared catalogue (src/i18n) in a page's language. */
export type Words = (id: StatementId, values?: Record<string, FactValue>) => string;

export function wordsFor(lang: Lang): Words {
  return (id, values) => word({ id, values } as Fact, lang);
}

/**
 * A phone page's language: the one the learner chose on the kiosk (the link's `lang`, which the app
 * adds to the QR code it shows), else the phone's (Accept-Language), Chinese first.
 */
export function pageLang(request: FastifyRequest): Lang {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  if (asked === 'zh' || asked === 'en') return asked;
  return langFromAcceptLanguage(request.headers['accept-language']);
}
