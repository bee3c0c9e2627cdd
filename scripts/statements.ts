/**
 * Writes the reviewer's statement lists, one file per language (docs/statements.zh.md,
 * docs/statements.en.md), from the shared catalogue in src/i18n.
 */
import { writeFileSync } from 'node:fs';
import { LANGS } from '../src/i18n';
import { statementList } from '../src/i18n/statement-list';

for (const lang of LANGS) {
  const file = new URL(`../docs/statements.${lang}.md`, import.meta.url);
  writeFileSync(file, statementList(lang));
  console.log(`wrote docs/statements.${lang}.md`);
}
