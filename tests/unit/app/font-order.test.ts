import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The page's faces (src/app/styles/tokens.css) in both languages: every Latin face before the CJK
// ones, so an English run on a Chinese page is drawn in Latin type (a CJK face draws ’ full width)
// while Chinese, which no Latin face has, falls through to the CJK faces. The e2e measure of the
// drawn widths is tests/e2e/phone-layout.test.ts ("the English apostrophe").
const css = fs.readFileSync(path.resolve(import.meta.dirname, '../../../src/app/styles/tokens.css'), 'utf8');
const CJK = /CJK|PingFang|Hiragino|Source Han|YaHei|Songti/;
const GENERIC = new Set(['serif', 'sans-serif', 'monospace']);

/** Every declaration of a custom property, with the selector of the rule it is in. */
function declarations(name: string): { selector: string; families: string[] }[] {
  const out: { selector: string; families: string[] }[] = [];
  for (const rule of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const m = new RegExp(`${name}\\s*:([^;]+);`).exec(rule[2]);
    if (m)
      out.push({
        selector: rule[1].trim(),
        families: m[1].split(',').map((f) => f.trim().replace(/"/g, '')),
      });
  }
  return out;
}

describe('font order: Latin faces first, in both languages', () => {
  for (const name of ['--font-sans', '--font-display']) {
    it(`${name}: one list for every language, every Latin face before the first CJK face`, () => {
      const found = declarations(name);
      expect(found.map((d) => d.selector)).toEqual([':root']);
      const { families } = found[0];
      const firstCjk = families.findIndex((f) => CJK.test(f));
      expect(firstCjk, 'a CJK face is listed').toBeGreaterThan(0);
      const latinAfter = families.slice(firstCjk).filter((f) => !CJK.test(f) && !GENERIC.has(f));
      expect(latinAfter, 'Latin faces after a CJK face').toEqual([]);
    });
  }
});
