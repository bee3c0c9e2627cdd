import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { firstZh } from '../../../src/app/i18n/messages/first.zh';
import { laterZh } from '../../../src/app/i18n/messages/later.zh';
import { NOT_FOUND, ROUTES, screenFile } from '../../../src/app/lib/route-table';

/**
 * The entry ships only the first tier of the catalogue (src/app/i18n/index.ts); the later tier comes
 * with the screens whose route row says `messages: 'later'`. A key of the later tier used on the
 * first path would show as the bare key, so this follows every import (static, dynamic, re-export;
 * not `import type`) from the entry and the first path's screens and checks each key they name:
 * a string literal that is a key, or a template literal whose head starts keys (`step.${k}`).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Catalogue {
  first: ReadonlySet<string>;
  later: ReadonlySet<string>;
}

interface Scanned {
  imports: string[];
  literals: string[];
  /** The text before a template literal's first `${`. */
  heads: string[];
}

function scan(file: string, text: string): Scanned {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const out: Scanned = { imports: [], literals: [], heads: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      if (!node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
        out.imports.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      if (!node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        out.imports.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [spec] = node.arguments;
      if (spec && ts.isStringLiteralLike(spec)) out.imports.push(spec.text);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.literals.push(node.text);
    if (ts.isTemplateExpression(node) && node.head.text) out.heads.push(node.head.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** `./x` from `src/a/b.ts` → `src/a/x.ts(x)` or `src/a/x/index.ts`; null for CSS, JSON and packages. */
function resolve(spec: string, from: string, exists: (file: string) => boolean): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const candidates = /\.tsx?$/.test(base) ? [base] : [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`];
  return candidates.find(exists) ?? null;
}

/** The catalogue itself names every key; it is not a user of them. */
const isCatalogue = (file: string) => file.startsWith('src/app/i18n/messages/');

/**
 * Follows the imports from `starts` and returns the files reached and, for each later-tier key a file
 * names, `<file>: <key>`.
 */
function laterKeysOnFirstPath(
  starts: readonly string[],
  read: (file: string) => string | undefined,
  catalogue: Catalogue,
): { files: string[]; keys: number; problems: string[] } {
  const seen = new Set<string>();
  const used = new Set<string>();
  const problems: string[] = [];
  const queue = [...starts];
  const exists = (file: string) => read(file) !== undefined;
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file) || isCatalogue(file)) continue;
    seen.add(file);
    const text = read(file);
    if (text === undefined) throw new Error(`${file} does not exist`);
    const { imports, literals, heads } = scan(file, text);
    const named = [
      ...literals.filter((s) => catalogue.first.has(s) || catalogue.later.has(s)),
      ...heads.flatMap((head) => [...catalogue.first, ...catalogue.later].filter((k) => k.startsWith(head))),
    ];
    for (const key of new Set(named)) {
      used.add(key);
      if (catalogue.later.has(key)) problems.push(`${file}: ${key}`);
    }
    for (const spec of imports) {
      const target = resolve(spec, file, exists);
      if (target) queue.push(target);
    }
  }
  return { files: [...seen], keys: used.size, problems };
}

const readSource = (file: string): string | undefined => {
  const full = path.join(ROOT, file);
  return fs.existsSync(full) && fs.statSync(full).isFile() ? fs.readFileSync(full, 'utf8') : undefined;
};

describe('the first path uses only the first tier of messages (src/app/i18n)', () => {
  test('no key of the later tier is named by the entry or a first-path screen, or anything they import', () => {
    const firstScreens = [...ROUTES, NOT_FOUND].filter((r) => r.messages === 'first');
    const starts = ['src/app/main.tsx', ...new Set(firstScreens.map((r) => screenFile(r.screen)))];
    const catalogue = { first: new Set(Object.keys(firstZh)), later: new Set(Object.keys(laterZh)) };
    const { files, keys, problems } = laterKeysOnFirstPath(starts, readSource, catalogue);
    // The walk started from the first screen and the 404, reached the frame, and found their words.
    expect(files).toEqual(
      expect.arrayContaining([
        'src/app/layouts/part-layout.tsx',
        'src/app/router/chunk-error-boundary.tsx',
        'src/app/screens/home/home-screen.tsx',
        'src/app/screens/not-found/not-found-screen.tsx',
      ]),
    );
    expect(keys).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  test('the check flags a later key named by a literal, a template head or a dynamic import, and skips types', () => {
    const files: Record<string, string> = {
      'src/app/main.tsx': [
        "import { A } from './a';",
        "import type { T } from './types';",
        "export { B } from './b';",
        "const c = () => import('./c');",
        "t('ok.first');",
      ].join('\n'),
      'src/app/a.tsx': "t('dub.title');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'src/app/b.ts': 'const s = (k: string) => t(`leadIn.${k}`);',
      'src/app/c/index.ts': "const m = { label: 'score.radar' };",
      'src/app/types.ts': "type T = 'report.title';",
    };
    const catalogue = {
      first: new Set(['ok.first']),
      later: new Set(['dub.title', 'leadIn.actor', 'leadIn.take', 'score.radar', 'report.title']),
    };
    const { files: reached, problems } = laterKeysOnFirstPath(
      ['src/app/main.tsx'],
      (f) => files[f],
      catalogue,
    );
    expect(reached.sort()).toEqual([
      'src/app/a.tsx',
      'src/app/b.ts',
      'src/app/c/index.ts',
      'src/app/main.tsx',
    ]);
    expect(problems.sort()).toEqual([
      'src/app/a.tsx: dub.title',
      'src/app/b.ts: leadIn.actor',
      'src/app/b.ts: leadIn.take',
      'src/app/c/index.ts: score.radar',
    ]);
  });
});
