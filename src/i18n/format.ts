/**
 * The message syntax of every catalogue (src/i18n/statements.*.ts and src/app/i18n/messages/): a
 * small subset of ICU MessageFormat, formatted with Intl so numbers and plurals follow the language.
 *
 * - `{name}`: the value as text (a number with Intl's default digits)
 * - `{name, number, ::.0}`: a number with a fixed count of decimals (`::.00` two, `::.` none);
 *   `::percent` reads 0.26 as "26%"
 * - `{n, plural, =0 {…} one {…} other {…}}`: `#` inside is the number
 * - `{key, select, a {…} other {…}}`
 * Anything else between braces is a mistake in a catalogue, and formatting throws (the catalogue
 * tests word every statement, so a mistake fails there, not in front of a learner).
 */
export type Lang = 'zh' | 'en';
export type Value = string | number;
export type Values = Readonly<Record<string, Value>>;

const LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en' };

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<Lang, Intl.PluralRules>();

function numberFormat(lang: Lang, style: string): Intl.NumberFormat {
  const key = `${lang}|${style}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], numberOptions(style));
    numberFormats.set(key, f);
  }
  return f;
}

function numberOptions(style: string): Intl.NumberFormatOptions {
  if (style === '') return { maximumFractionDigits: 3 };
  if (style === '::percent') return { style: 'percent', maximumFractionDigits: 0 };
  // `::+.0`: the sign shown on a change ("+3.5", "-2.0").
  const m = /^::(\+?)\.(0*)(#*)$/.exec(style);
  if (!m) throw new Error(`unknown number style "${style}"`);
  return {
    minimumFractionDigits: m[2].length,
    maximumFractionDigits: m[2].length + m[3].length,
    signDisplay: m[1] ? 'exceptZero' : 'auto',
  };
}

/** A number as a learner reads it: no "-0" when a small negative rounds away. */
export function formatNumber(value: number, lang: Lang, style = ''): string {
  const f = numberFormat(lang, style);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 3;
  const scale = 10 ** (digits + (style === '::percent' ? 2 : 0));
  const v = Math.round(value * scale) === 0 ? 0 : value;
  // A minus sign, not a hyphen, before a negative figure ("−2.0").
  return f.format(v).replace('-', '−');
}

function plural(lang: Lang): Intl.PluralRules {
  let p = pluralRules.get(lang);
  if (!p) {
    p = new Intl.PluralRules(LOCALE[lang]);
    pluralRules.set(lang, p);
  }
  return p;
}

/** Index of the brace closing the one opened just before `from`. */
function closing(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed brace in "${text}"`);
}

/** `one {…} other {…}` → { one: '…', other: '…' }. */
function cases(body: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    const open = body.indexOf('{', i);
    if (open < 0) break;
    const key = body.slice(i, open).trim();
    const end = closing(body, open + 1);
    out.set(key, body.slice(open + 1, end));
    i = end + 1;
  }
  if (!out.has('other')) throw new Error(`a plural or select needs an "other" case: "${body}"`);
  return out;
}

function argument(spec: string, values: Values, lang: Lang, pound: string | null): string {
  const first = spec.indexOf(',');
  const name = (first < 0 ? spec : spec.slice(0, first)).trim();
  if (!(name in values)) throw new Error(`missing value "${name}"`);
  const value = values[name];
  if (first < 0) return typeof value === 'number' ? formatNumber(value, lang) : value;
  const rest = spec.slice(first + 1);
  const second = rest.indexOf(',');
  const kind = (second < 0 ? rest : rest.slice(0, second)).trim();
  const body = second < 0 ? '' : rest.slice(second + 1).trim();
  if (kind === 'number') {
    if (typeof value !== 'number') throw new Error(`"${name}" is not a number`);
    return formatNumber(value, lang, body);
  }
  if (kind === 'plural') {
    if (typeof value !== 'number') throw new Error(`"${name}" is not a number`);
    const options = cases(body);
    const chosen =
      options.get(`=${value}`) ?? options.get(plural(lang).select(value)) ?? options.get('other');
    return format(chosen ?? '', values, lang, formatNumber(value, lang));
  }
  if (kind === 'select') {
    const options = cases(body);
    return format(options.get(String(value)) ?? options.get('other') ?? '', values, lang, pound);
  }
  throw new Error(`unknown argument kind "${kind}" in {${spec}}`);
}

/** Words a message with its values in a language (see the syntax above). */
export function format(message: string, values: Values, lang: Lang, pound: string | null = null): string {
  let out = '';
  let i = 0;
  while (i < message.length) {
    const ch = message[i];
    if (ch === '{') {
      const end = closing(message, i + 1);
      out += argument(message.slice(i + 1, end), values, lang, pound);
      i = end + 1;
    } else if (ch === '#' && pound !== null) {
      out += pound;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The names a message reads, in any case body: the catalogue test compares them with the declared ones. */
export function argNames(message: string): Set<string> {
  const names = new Set<string>();
  let i = 0;
  while (i < message.length) {
    if (message[i] !== '{') {
      i++;
      continue;
    }
    const end = closing(message, i + 1);
    const spec = message.slice(i + 1, end);
    const comma = spec.indexOf(',');
    names.add((comma < 0 ? spec : spec.slice(0, comma)).trim());
    if (comma >= 0) {
      const rest = spec.slice(comma + 1);
      const second = rest.indexOf(',');
      const kind = rest.slice(0, second < 0 ? undefined : second).trim();
      if (kind === 'plural' || kind === 'select') {
        for (const body of cases(rest.slice(second + 1)).values())
          for (const n of argNames(body)) names.add(n);
      }
    }
    i = end + 1;
  }
  return names;
}
