import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The import graph of a source tree, read as text (the architecture tests check rules on it). */
export interface Edge {
  from: string;
  to: string;
}

/** Every import cycle, as the files of each strongly connected component (Tarjan), sorted. */
export function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfLoop = (next.get(v) ?? []).includes(v);
    if (component.length > 1 || selfLoop) out.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

function sourceFiles(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(root, rel);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The file a specifier names, among `files` (a module path, a file with its extension, a folder index). */
function resolve(target: string, files: ReadonlySet<string>): string | null {
  for (const ext of EXTENSIONS) if (files.has(target + ext)) return target + ext;
  return null;
}

/** `import.meta.glob('../screens/*\/*-screen.tsx')` → the files the pattern matches. */
function globMatches(pattern: string, files: ReadonlySet<string>): string[] {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  return [...files].filter((f) => re.test(f));
}

/** The import specifiers of a file's text, by kind: module paths, glob patterns. */
function specifiers(text: string): { modules: string[]; globs: string[] } {
  const modules = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
  const urls = [...text.matchAll(/new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/g)].map((m) => m[1]);
  const globs = [...text.matchAll(/import\.meta\.glob(?:<[^>]*>)?\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
  return { modules: [...modules, ...urls], globs };
}

/**
 * Every edge between files under src/ of a tree given as file → text. An import of a path that is not
 * a file of the tree (a stylesheet, a JSON model) keeps its normalised path, so the rank check still
 * sees it.
 */
export function importEdges(tree: ReadonlyMap<string, string>): Edge[] {
  const files = new Set(tree.keys());
  return [...tree].flatMap(([from, text]) => {
    const dir = path.posix.dirname(from);
    const { modules, globs } = specifiers(text);
    const fromModules = modules
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => {
        const target = path.posix.normalize(path.posix.join(dir, spec));
        return { from, to: resolve(target, files) ?? target };
      });
    const fromGlobs = globs.flatMap((pattern) =>
      globMatches(path.posix.normalize(path.posix.join(dir, pattern)), files).map((to) => ({ from, to })),
    );
    return [...fromModules, ...fromGlobs];
  });
}

/** Every .ts/.tsx file under `dir` of `root` (declarations left out), path → text. */
export function readTree(root: string, dir: string): Map<string, string> {
  return new Map(sourceFiles(root, dir).map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
}
