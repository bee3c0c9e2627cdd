import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Every learner-facing sentence lives in a catalogue: the shared one (src/i18n, which the app, the
 * H5 pages and the server's answers word from) or the app's screen messages (src/app/i18n/messages).
 * This scans every string literal, template part and JSX text under src/ and server/ for Chinese,
 * and every object literal that pairs `zh` and `en` strings (a sentence in two languages written in
 * code), outside those catalogues.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CJK = /[\u3400-\u9fff]/;

const CATALOGUES = ['src/i18n/', 'src/app/i18n/messages/'];

/** Chinese that is not a learner's sentence to translate: each says why. */
const ALLOWED: Record<string, string> = {
  'src/app/features/attract/attract-posters.ts': 'demo content: placeholder poster titles',
  'server/auth/users.ts':
    "demo content (the demo learner's nickname) and the operator's answer from users:add (a nickname it refuses), never a learner's",
  'src/api/errors.ts':
    "the request wrapper's own rows, verbatim from the contract: src/api imports nothing outside itself, and the app words them by reason and code from the catalogue (src/app/i18n/error-text.ts)",
};

/**
 * Files whose Chinese is not yet in the catalogue, by count of literals. The count may only go down:
 * a new sentence goes to the catalogue. Empty: the server words every answer from src/i18n.
 */
const NOT_YET_IN_THE_CATALOGUE: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const isText = (
  n: ts.Node,
): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateLiteralLikeNode | ts.JsxText =>
  ts.isStringLiteral(n) ||
  ts.isNoSubstitutionTemplateLiteral(n) ||
  ts.isTemplateHead(n) ||
  ts.isTemplateMiddle(n) ||
  ts.isTemplateTail(n) ||
  ts.isJsxText(n);

/** Literal text with words in it (an empty placeholder pair is not a sentence). */
const isLiteralText = (n: ts.Node | undefined) =>
  !!n &&
  (ts.isTemplateExpression(n) ||
    ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && n.text.trim() !== ''));

/** A `{ zh: '…', en: '…' }` pair written in code. */
function isPair(n: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(n)) return false;
  const value = (name: string) =>
    n.properties.find(
      (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name,
    )?.initializer;
  return isLiteralText(value('zh')) && isLiteralText(value('en'));
}

function scan(file: string, text: string): { chinese: string[]; pairs: string[] } {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const chinese: string[] = [];
  const pairs: string[] = [];
  const visit = (n: ts.Node) => {
    if (isText(n) && CJK.test(n.text)) chinese.push(n.text.trim().slice(0, 40));
    if (isPair(n)) pairs.push(n.getText(sf).slice(0, 60));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { chinese, pairs };
}

const FILES = [...sourceFiles('src'), ...sourceFiles('server')].filter(
  (f) => !CATALOGUES.some((c) => f.startsWith(c)),
);
const found = new Map(FILES.map((f) => [f, scan(f, fs.readFileSync(path.join(ROOT, f), 'utf8'))]));

describe('learner-facing words live in the catalogues', () => {
  test('the scan reads the files it should (it finds what the catalogue itself holds)', () => {
    expect(FILES.length).toBeGreaterThan(200);
    const catalogue = scan(
      'src/i18n/statements.zh.ts',
      fs.readFileSync(path.join(ROOT, 'src/i18n/statements.zh.ts'), 'utf8'),
    );
    expect(catalogue.chinese.length).toBeGreaterThan(100);
    expect(scan('x.ts', "const a = { zh: '你好', en: 'hello' };").pairs).toHaveLength(1);
    expect(scan('x.tsx', 'const a = <p>你好</p>;').chinese).toEqual(['你好']);
  });

  test('no Chinese string outside the catalogues, the allow-list and the shrinking list', () => {
    const offenders = [...found]
      .filter(([f, r]) => r.chinese.length > 0 && !(f in ALLOWED) && !(f in NOT_YET_IN_THE_CATALOGUE))
      .map(([f, r]) => `${f}: ${r.chinese.join(' | ')}`);
    expect(offenders).toEqual([]);
  });

  test('the files not yet moved hold no more Chinese than they did (move sentences to src/i18n)', () => {
    for (const [file, limit] of Object.entries(NOT_YET_IN_THE_CATALOGUE)) {
      const r = found.get(file);
      expect(r, `${file} no longer exists: drop it from the list`).toBeDefined();
      expect(r?.chinese.length ?? 0, `${file}: ${r?.chinese.join(' | ')}`).toBeLessThanOrEqual(limit);
    }
  });

  test('no sentence pair { zh, en } is written in code outside the catalogues', () => {
    const pairs = [...found]
      .filter(([f, r]) => r.pairs.length > 0 && !(f in NOT_YET_IN_THE_CATALOGUE))
      .map(([f, r]) => `${f}: ${r.pairs.join(' | ')}`);
    expect(pairs).toEqual([]);
  });

  test('the allow-list names files that exist and still need it', () => {
    for (const file of Object.keys(ALLOWED)) expect(found.get(file)?.chinese.length, file).toBeGreaterThan(0);
  });
});
