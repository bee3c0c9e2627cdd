import type { FastifyRequest } from 'fastify';
import { firstEn } from '../../src/app/i18n/messages/first.en';
import { firstZh } from '../../src/app/i18n/messages/first.zh';
import { type Fact, type FactValue, LANGS, type Lang, type StatementId, word } from '../../src/i18n';
import { LANGUAGE_NAMES } from '../../src/i18n/language-names';
import { requestLang } from '../lib/words';
import { html, type Raw } from './html';

/** Words a statement of the shared catalogue (src/i18n) in a page's language. */
export type Words = (id: StatementId, values?: Record<string, FactValue>) => string;

export function wordsFor(lang: Lang): Words {
  return (id, values) => word({ id, values } as Fact, lang);
}

/**
 * A phone page's language: the link's `lang` where it has one (the report's share code and the
 * sign-in code both carry the language the learner chose on the kiosk: src/app/screens/report/
 * report-view.tsx, server/auth/qr/provider.ts), else the phone's (Accept-Language), Chinese first:
 * the rule of every answer (server/lib/words.ts).
 */
export const pageLang = (request: FastifyRequest): Lang => requestLang(request);

/** The app's own words the phone pages share with it: its name and the language switch's name. */
const APP = { zh: firstZh, en: firstEn } as const;
export const productName = (lang: Lang): string => APP[lang]['app.name'];

/**
 * The top of a phone page: the product's name and a language switch. The switch is two links to
 * this page with `?lang=` (the rest of the query kept), so it works under the pages' policy of no
 * scripts (server/plugins/security-headers.ts h5Policy). A page answering a form's POST has no
 * address to show again: the name only.
 */
export function phoneHeader(request: FastifyRequest, lang: Lang): Raw {
  const brand = html`<span class="brand">${productName(lang)}</span>`;
  if (request.method !== 'GET') return html`<header class="top">${brand}</header>`;
  const url = new URL(request.url, 'http://h5.invalid');
  const links = LANGS.map((l) => {
    url.searchParams.set('lang', l);
    const { label, tag } = LANGUAGE_NAMES[l];
    return html`<a href="${url.pathname + url.search}" lang="${tag}" hreflang="${tag}"${
      l === lang ? html` aria-current="true"` : ''
    }>${label}</a>`;
  });
  return html`<header class="top">${brand}
    <nav class="langs" aria-label="${APP[lang]['ui.language']}">${links}</nav></header>`;
}
