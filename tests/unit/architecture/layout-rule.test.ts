import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * The layout rule of docs/architecture.md ("Where client code lives"), checked on every relative
 * import (static, dynamic and re-exports) under src/. Imports go down the ranks, never up; a screen
 * imports no other screen.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Higher ranks may import lower ones and their own; `[rank, folder]`, most specific first. */
const RANKS: ReadonlyArray<readonly [number, string]> = [
  [6, 'src/app/router'],
  [6, 'src/app/layouts'],
  [6, 'src/app/app'],
  [6, 'src/app/main'],
  [5, 'src/app/screens'],
  [4, 'src/app/features'],
  [3, 'src/app/stores'],
  [2, 'src/app/ui'],
  [2, 'src/app/lib'],
  [1, 'src/app/i18n'],
  [1, 'src/app/styles'],
  [0, 'src/api'],
  [0, 'src/i18n'],
  [0, 'src/audio'],
  [0, 'src/workers'],
];

interface Edge {
  from: string;
  to: string;
}

function rankOf(file: string): { rank: number; folder: string } {
  for (const [rank, folder] of RANKS) {
    if (file === folder || file.startsWith(`${folder}/`) || file.startsWith(`${folder}.`))
      return { rank, folder };
  }
  throw new Error(`${file} is in no folder of the layout rule: add it to docs/architecture.md and here`);
}

/** `src/app/screens/dub/x.tsx` → `src/app/screens/dub`. */
const screenOf = (file: string) => file.split('/').slice(0, 4).join('/');

function violations(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = rankOf(from);
    const b = rankOf(to);
    if (b.rank > a.rank) out.push(`${from} imports ${to}: ${b.folder} is above ${a.folder}`);
    else if (a.folder === 'src/app/screens' && b.folder === a.folder && screenOf(from) !== screenOf(to))
      out.push(`${from} imports ${to}: a screen imports no other screen (share it as a feature)`);
    else if (a.folder === 'src/api' && b.folder !== a.folder)
      out.push(`${from} imports ${to}: src/api (the request wrapper, calls, contract) imports nothing else`);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function importEdges(): Edge[] {
  return sourceFiles('src').flatMap((from) => {
    const text = fs.readFileSync(path.join(ROOT, from), 'utf8');
    return ts
      .preProcessFile(text, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => ({ from, to: path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) }));
  });
}

describe('where client code lives (docs/architecture.md)', () => {
  test('no import under src/ runs up the ranks, and no screen imports another', () => {
    const edges = importEdges();
    expect(edges.length).toBeGreaterThan(300);
    expect(violations(edges)).toEqual([]);
  });

  test('the check flags each kind of wrong import', () => {
    expect(
      violations([
        { from: 'src/app/ui/button.tsx', to: 'src/app/features/dub/dub-session' },
        { from: 'src/app/lib/x.ts', to: 'src/app/screens/home/home-screen' },
        { from: 'src/app/stores/x.ts', to: 'src/app/router/routes' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/screens/dub/dub-screen' },
        { from: 'src/app/screens/report/x.tsx', to: 'src/app/screens/result/y' },
        { from: 'src/api/calls.ts', to: 'src/app/stores/account' },
        { from: 'src/audio/scoring/labels.ts', to: 'src/app/i18n' },
        { from: 'src/api/calls.ts', to: 'src/audio/constants' },
      ]),
    ).toHaveLength(8);
    expect(
      violations([
        { from: 'src/app/screens/dub/dub-screen.tsx', to: 'src/app/features/dub/dub-session' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/features/uploads/y' },
        { from: 'src/app/screens/dub/a.tsx', to: 'src/app/screens/dub/b' },
        { from: 'src/audio/capture/recorder.ts', to: 'src/workers/encoder-types' },
        { from: 'src/app/i18n/index.ts', to: 'src/audio/scoring/labels' },
      ]),
    ).toEqual([]);
  });
});
