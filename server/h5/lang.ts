import type { FastifyRequest } from 'fastify';
import { type Fact, type FactValue, type Lang, type StatementId, word } from '../../src/i18n';
import { requestLang } from '../lib/words';

/** Words a statement of the shared catalogue (src/i18n) in a page's language. */
export type Words = (id: StatementId, values?: Record<string, FactValue>) => string;

export function wordsFor(lang: Lang): Words {
  return (id, values) => word({ id, values } as Fact, lang);
}

/**
 * A phone page's language: the one the learner chose on the kiosk (the link's `lang`, which the app
 * adds to the QR code it shows), else the phone's (Accept-Language), Chinese first: the rule of every
 * answer (server/lib/words.ts).
 */
export const pageLang = (request: FastifyRequest): Lang => requestLang(request);
