import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ERROR_IDS, ERROR_MESSAGES, errorText } from '../../../src/i18n/error-rows';
import {
  argNames,
  CATALOGUE,
  fact,
  format,
  LANGS,
  langFromAcceptLanguage,
  STATEMENTS,
  type StatementId,
  word,
} from '../../../src/i18n';
import { statementList, unlisted } from '../../../src/i18n/statement-list';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const IDS = Object.keys(STATEMENTS) as StatementId[];
const CJK = /[\u3400-\u9fff]/;

describe('the shared catalogue (src/i18n)', () => {
  test.each(LANGS)('every statement in %s reads exactly the values it declares', (lang) => {
    for (const id of IDS) {
      const declared = new Set<string>(STATEMENTS[id]);
      expect([...argNames(CATALOGUE[lang][id])].sort(), `${lang} ${id}`).toEqual([...declared].sort());
    }
  });

  test.each(LANGS)('every statement words in %s with sample values, in its own script', (lang) => {
    for (const id of IDS) {
      const values = Object.fromEntries(STATEMENTS[id].map((name) => [name, 2]));
      const text = word({ id, values } as Parameters<typeof word>[0], lang);
      expect(text.length, id).toBeGreaterThan(0);
      expect(text, id).not.toMatch(/[{}]/);
      // English never shows Chinese; every Chinese statement but the numbers-only ones has Chinese.
      if (lang === 'en') expect(text, id).not.toMatch(CJK);
    }
    for (const id of ERROR_IDS) {
      const text = errorText(id, lang, { minutes: 3 });
      if (lang === 'en') expect(text, id).not.toMatch(CJK);
      else expect(text, id).toMatch(CJK);
    }
  });

  test('numbers, plurals and selects follow the language (Intl)', () => {
    expect(format('{n, number, ::.0}', { n: 1.25 }, 'en')).toBe('1.3');
    expect(format('{n, number, ::.0}', { n: -0.01 }, 'zh')).toBe('0.0');
    expect(format('{n, number, ::+.0}', { n: 3 }, 'en')).toBe('+3.0');
    expect(format('{n, number, ::+.0}', { n: -2 }, 'en')).toBe('−2.0');
    expect(format('{r, number, ::percent}', { r: 0.256 }, 'en')).toBe('26%');
    expect(format('{n, plural, one {# line} other {# lines}}', { n: 1 }, 'en')).toBe('1 line');
    expect(format('{n, plural, one {# line} other {# lines}}', { n: 3 }, 'en')).toBe('3 lines');
    expect(format('{n, plural, =0 {none} other {#}}', { n: 0 }, 'en')).toBe('none');
    expect(format('{s, select, a {A {x}} other {B}}', { s: 'a', x: 'y' }, 'en')).toBe('A y');
    expect(() => format('{missing}', {}, 'en')).toThrow(/missing/);
    expect(() => format('{n, number, ::weird}', { n: 1 }, 'en')).toThrow(/number style/);
  });

  test('a nested fact and a two-language value are worded in the asked language', () => {
    const f = fact('report.strongest', { area: fact('area.timing'), average: 81.6 });
    expect(word(f, 'zh')).toBe('节奏是你最强的一项（平均 82 分）。');
    expect(word(f, 'en')).toBe('Your timing is your strongest side (average 82).');
    const q = fact('report.practice.question', {
      index: 2,
      prompt: { zh: '他为什么走？', en: 'Why does he leave?' },
    });
    expect(word(q, 'en')).toContain('"Why does he leave?"');
    expect(word(q, 'zh')).toContain('“他为什么走？”');
  });

  test("a phone's Accept-Language picks the page language, Chinese first", () => {
    expect(langFromAcceptLanguage(undefined)).toBe('zh');
    expect(langFromAcceptLanguage('en-US,en;q=0.9')).toBe('en');
    expect(langFromAcceptLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(langFromAcceptLanguage('fr-FR,en;q=0.5,zh;q=0.4')).toBe('en');
    expect(langFromAcceptLanguage('fr-FR')).toBe('zh');
  });

  test('both languages hold the same rows', () => {
    expect(Object.keys(CATALOGUE.en).sort()).toEqual(Object.keys(CATALOGUE.zh).sort());
    expect(Object.keys(ERROR_MESSAGES.en).sort()).toEqual([...ERROR_IDS].sort());
  });

  test('the reviewer lists (docs/statements.*.md) list every statement and are up to date (npm run statements)', () => {
    expect(unlisted()).toEqual([]);
    for (const lang of LANGS) {
      const committed = readFileSync(path.join(ROOT, `docs/statements.${lang}.md`), 'utf8');
      expect(committed, `docs/statements.${lang}.md is stale: run npm run statements`).toBe(
        statementList(lang),
      );
      for (const id of [...IDS, ...ERROR_IDS]) expect(committed).toContain(`\`${id}\``);
    }
  });
});
