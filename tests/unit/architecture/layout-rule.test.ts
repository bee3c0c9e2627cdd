import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cycles, type Edge, importEdges, readTree } from './import-graph';

/**
 * The layout rule of docs/architecture.md ("Where client code lives"), checked on every import under
 * src/: static, dynamic and type imports, re-exports, `import.meta.glob` patterns and
 * `new URL(…, import.meta.url)` (a worker or worklet entry). Imports go down the ranks, never up; a
 * screen imports no other screen, a feature no other feature; pure code imports only pure code; and
 * no file reaches itself through its imports.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Higher ranks may import lower ones and their own; `[rank, folder]`, most specific first. */
const RANKS: ReadonlyArray<readonly [number, string]> = [
  [7, 'src/app/router'],
  [7, 'src/app/layouts'],
  [7, 'src/app/app'],
  [7, 'src/app/main'],
  [6, 'src/app/screens'],
  [5, 'src/app/features'],
  [4, 'src/app/stores'],
  [3, 'src/app/ui'],
  [3, 'src/app/lib'],
  [2, 'src/app/i18n'],
  [2, 'src/app/styles'],
  // Pure code: no DOM, no worker, no request; the server runs it too (docs/architecture.md).
  [0, 'src/api/contract'],
  [0, 'src/audio/dsp'],
  [0, 'src/audio/analysis'],
  [0, 'src/audio/scoring'],
  [0, 'src/audio/constants'],
  [0, 'src/i18n'],
  // The platform under the page: the request wrapper and calls, capture, worklet, workers.
  [1, 'src/api'],
  [1, 'src/audio/capture'],
  [1, 'src/audio/worklet'],
  [1, 'src/workers'],
];

function rankOf(file: string): { rank: number; folder: string } {
  for (const [rank, folder] of RANKS) {
    if (file === folder || file.startsWith(`${folder}/`) || file.startsWith(`${folder}.`))
      return { rank, folder };
  }
  throw new Error(`${file} is in no folder of the layout rule: add it to docs/architecture.md and here`);
}

/** `src/app/screens/dub/x.tsx` → `src/app/screens/dub` (a screen's or a feature's own folder). */
const unitOf = (file: string) => file.split('/').slice(0, 4).join('/');

function violations(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = rankOf(from);
    const b = rankOf(to);
    if (b.rank > a.rank) out.push(`${from} imports ${to}: ${b.folder} is above ${a.folder}`);
    else if (a.rank === 0 && b.rank !== 0)
      out.push(`${from} imports ${to}: pure code (${a.folder}) imports only pure code`);
    else if (a.folder === 'src/app/screens' && b.folder === a.folder && unitOf(from) !== unitOf(to))
      out.push(`${from} imports ${to}: a screen imports no other screen (share it as a feature)`);
    else if (a.folder === 'src/app/features' && b.folder === a.folder && unitOf(from) !== unitOf(to))
      out.push(`${from} imports ${to}: a feature imports no other feature (move the shared piece down)`);
    else if (a.folder === 'src/api' && b.folder !== a.folder && b.folder !== 'src/api/contract')
      out.push(`${from} imports ${to}: src/api (the request wrapper, calls, contract) imports nothing else`);
  }
  return out;
}

describe('where client code lives (docs/architecture.md)', () => {
  const tree = readTree(ROOT, 'src');
  const edges = importEdges(tree);

  test('no import under src/ runs up the ranks or across screens or features', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(violations(edges)).toEqual([]);
  });

  test('no import cycle under src/', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(cycles(edges)).toEqual([]);
  });

  test('the router reaches every screen through its import.meta.glob', () => {
    const screens = edges.filter((e) => e.from === 'src/app/router/routes.tsx').map((e) => e.to);
    expect(screens).toEqual(expect.arrayContaining(['src/app/screens/dub/dub-screen.tsx']));
    expect(screens.filter((s) => s.endsWith('-screen.tsx')).length).toBeGreaterThan(10);
  });

  test('an import planted in a copy of the tree is caught: scoring → workers, a feature → a feature, a cycle', () => {
    const scoring = 'src/audio/scoring/score.ts';
    const dub = 'src/app/features/dub/dub-session.ts';
    const planted = new Map(tree);
    planted.set(
      scoring,
      `import type { TakeSummary } from '../../workers/encoder-types';\n${tree.get(scoring)}`,
    );
    planted.set(dub, `import { WatchDubFromScores } from '../watch-dub/watch-dub';\n${tree.get(dub)}`);
    const plantedEdges = importEdges(planted);
    expect(violations(plantedEdges)).toEqual([
      `${dub} imports src/app/features/watch-dub/watch-dub.tsx: a feature imports no other feature (move the shared piece down)`,
      `${scoring} imports src/workers/encoder-types.ts: src/workers is above src/audio/scoring`,
    ]);
    // A cycle between two files that otherwise obey the ranks.
    const a = 'src/app/stores/uploads/app-queue.ts';
    const withCycle = new Map(tree);
    withCycle.set(a, `import { start } from './start';\n${tree.get(a)}`);
    expect(cycles(importEdges(withCycle))).toEqual([
      ['src/app/stores/uploads/app-queue.ts', 'src/app/stores/uploads/start.ts'],
    ]);
  });

  test('the check flags each kind of wrong import', () => {
    expect(
      violations([
        { from: 'src/app/ui/button.tsx', to: 'src/app/features/dub/dub-session' },
        { from: 'src/app/lib/x.ts', to: 'src/app/screens/home/home-screen' },
        { from: 'src/app/stores/x.ts', to: 'src/app/router/routes' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/screens/dub/dub-screen' },
        { from: 'src/app/screens/report/x.tsx', to: 'src/app/screens/result/y' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/features/watch-dub/y' },
        { from: 'src/app/stores/x.ts', to: 'src/app/features/dub/y' },
        { from: 'src/api/calls.ts', to: 'src/app/stores/account' },
        { from: 'src/audio/scoring/labels.ts', to: 'src/app/i18n' },
        { from: 'src/audio/scoring/score.ts', to: 'src/workers/encoder-types' },
        { from: 'src/audio/dsp/wav.ts', to: 'src/audio/capture/recorder' },
        { from: 'src/api/contract/speech.ts', to: 'src/api/calls' },
        { from: 'src/api/calls.ts', to: 'src/audio/constants' },
      ]),
    ).toHaveLength(13);
    expect(
      violations([
        { from: 'src/app/screens/dub/dub-screen.tsx', to: 'src/app/features/dub/dub-session' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/features/dub/y' },
        { from: 'src/app/features/dub/x.ts', to: 'src/app/stores/uploads/y' },
        { from: 'src/app/screens/dub/a.tsx', to: 'src/app/screens/dub/b' },
        { from: 'src/audio/capture/recorder.ts', to: 'src/workers/encoder-types' },
        { from: 'src/workers/encoder.worker.ts', to: 'src/audio/dsp/wav' },
        { from: 'src/audio/scoring/score.ts', to: 'src/audio/analysis/pitch' },
        { from: 'src/api/calls.ts', to: 'src/api/contract' },
        { from: 'src/app/i18n/index.ts', to: 'src/audio/scoring/labels' },
      ]),
    ).toEqual([]);
  });

  test('the cycle finder names each cycle once and ignores a chain', () => {
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
        { from: 'c', to: 'd' },
        { from: 'd', to: 'd' },
        { from: 'e', to: 'f' },
      ]),
    ).toEqual([['d'], ['a', 'b', 'c']]);
    expect(cycles([{ from: 'a', to: 'b' }])).toEqual([]);
  });
});
