/**
 * The first screen's modules as one chunk, a `codeSplitting` group of vite.config.ts. Left to the
 * default splitting, what the screen `/` redirects to imports statically is a dozen small chunks,
 * each shared with some other screen and each gzip'd alone with its own import and export lines. As
 * one chunk, imported by the entry and by that screen, the first screen is four files and about
 * 2 KB gzip lighter (`npm run build` prints it). Other screens import the same chunk; they need most
 * of it anyway (React, signals, the catalogue, the part store, the UI kit).
 */
import path from 'node:path';
import { ROOT_REDIRECT, ROUTES, screenFile } from '../src/app/lib/route-table.ts';

export const FIRST_SCREEN_CHUNK = 'first-screen';

/** What the bundler tells a group about the module graph (rolldown's ChunkingContext). */
interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Every module `from` imports statically, directly or not (not `from` itself). */
function staticImports(from: string, graph: ModuleGraph): Set<string> {
  const found = new Set<string>();
  const queue = [...(graph.getModuleInfo(from)?.importedIds ?? [])];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id) || id === from) continue;
    found.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return found;
}

/**
 * The group's `name`: `first-screen` for a module the first screen imports statically, else null
 * (the default splitting). A build without that screen (a worker) groups nothing.
 */
export function firstScreenChunk(root: string): (id: string, graph: ModuleGraph) => string | null {
  const row = ROUTES.find((r) => r.path === ROOT_REDIRECT);
  if (!row) throw new Error(`The route table has no row for ${ROOT_REDIRECT}, where / redirects`);
  const screen = path.resolve(root, screenFile(row.screen));
  const members = new WeakMap<ModuleGraph, Set<string>>();
  return (id, graph) => {
    let inChunk = members.get(graph);
    if (!inChunk) {
      inChunk = staticImports(screen, graph);
      members.set(graph, inChunk);
    }
    return inChunk.has(id) ? FIRST_SCREEN_CHUNK : null;
  };
}
