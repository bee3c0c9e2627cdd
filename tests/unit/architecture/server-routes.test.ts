import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cycles, type Edge, importEdges, readTree } from './import-graph';

/**
 * docs/architecture.md ("Server"): a route file registers routes and imports no other route file;
 * what two routes share lives in server/lib or a service folder. Only a folder's index.ts, which
 * composes the folder's routes, imports its siblings.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

const isRoute = (file: string) => file.startsWith('server/routes/');
const isIndex = (file: string) => file.endsWith('/index.ts');

function routeImportsRoute(edges: readonly Edge[]): string[] {
  return edges
    .filter((e) => isRoute(e.from) && isRoute(e.to) && !isIndex(e.from))
    .map((e) => `${e.from} imports ${e.to}: routes share code through server/lib, not through each other`);
}

describe('server routes stay separate (docs/architecture.md)', () => {
  const tree = readTree(ROOT, 'server');
  const edges = importEdges(tree);

  test('no route file imports another route file', () => {
    expect(edges.filter((e) => isRoute(e.from)).length).toBeGreaterThan(20);
    expect(routeImportsRoute(edges)).toEqual([]);
  });

  test('no import cycle under server/', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(cycles(edges)).toEqual([]);
  });

  test('an import of one route by another, planted in a copy of the tree, is caught', () => {
    const report = 'server/routes/producer/h5-report.ts';
    const planted = new Map(tree);
    planted.set(report, `import { mediaRoutes } from './media';\n${tree.get(report)}`);
    expect(routeImportsRoute(importEdges(planted))).toEqual([
      `${report} imports server/routes/producer/media.ts: routes share code through server/lib, not through each other`,
    ]);
  });
});
