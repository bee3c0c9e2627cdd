/**
 * The shared catalogue's entry: `word(fact, lang)` for the app, the H5 page and the server's answers.
 * Pure (no DOM, no Node): both the client's and the server's tsconfigs include src/i18n.
 */
import { format, type Lang, type Values } from './format';
import { type Fact, type FactValue, type Localized, STATEMENTS, type StatementId } from './statements';
import { statementsEn } from './statements.en';
import { statementsZh } from './statements.zh';

export { argNames, format, formatNumber, type Lang } from './format';
export { type Fact, type FactValue, fact, type Localized, STATEMENTS, type StatementId } from './statements';

export const LANGS: readonly Lang[] = ['zh', 'en'];

export const CATALOGUE: Record<Lang, Record<StatementId, string>> = { zh: statementsZh, en: statementsEn };

const isFact = (v: FactValue): v is Fact => typeof v === 'object' && 'id' in v;

/** Whether a string names a statement (an id from an answer is checked before it is worded). */
export function isStatementId(id: unknown): id is StatementId {
  return typeof id === 'string' && Object.hasOwn(STATEMENTS, id);
}

/** A fact in a language: nested facts and two-language values are worded first. */
export function word(f: Fact, lang: Lang): string {
  const values: Record<string, string | number> = {};
  for (const [name, v] of Object.entries((f.values ?? {}) as Record<string, FactValue>)) {
    values[name] = typeof v === 'object' ? (isFact(v) ? word(v, lang) : v[lang]) : v;
  }
  return format(CATALOGUE[lang][f.id], values as Values, lang);
}

/** A fact in both languages, for an answer that carries both (the report's strengths). */
export function wordBoth(f: Fact): Localized {
  return { zh: word(f, 'zh'), en: word(f, 'en') };
}

/** The language a phone asks for (Accept-Language): English when English comes before Chinese. */
export function langFromAcceptLanguage(header: string | undefined): Lang {
  if (!header) return 'zh';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q) };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return 'zh';
}
