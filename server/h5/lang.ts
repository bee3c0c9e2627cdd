import type { FastifyRequest } from 'fastify';
import { type Fact, type FactValue, type Lang, type StatementId, word } from '../../src/i18n';
import { requestLang } from '../lib/words';

/** Words a statement of the shared catalogue (src/i18n) in a page's language. */
export type Words = (id: StatementId, values?: Record<string, FactValue>) => string;

export function wordsFor(lang: Lang): Words {
  return (id, values) => word({ id, values } as Fact, lang);
}

/**
 * A phone page's language: the link's `lang` where it has one (the report's share code carries the
 * language the learner chose on the kiosk, src/app/screens/report/report-view.tsx; the sign-in code's
 * link does not), else the phone's (Accept-Language), Chinese first: the rule of every answer
 * (server/lib/words.ts).
 */
export const pageLang = (request: FastifyRequest): Lang => requestLang(request);
