/**
 * Prints what a V8 `.cpuprofile` (from `node --cpu-prof`) spent its time on, as text:
 *  - self time by function (where the CPU actually was),
 *  - total time by function (the function and everything it called; each function once per stack),
 *  - a top-down tree from the roots (a flame graph in text: children indented under their caller,
 *    pruned below `--min` percent).
 * `--folded out.txt` also writes folded stacks ("a;b;c <µs>" per line), the input of flame graph
 * tools; the .cpuprofile itself opens as a flame chart in the browser's performance panel.
 *
 *   npx tsx bench/cpu-profile.ts <file.cpuprofile>… [--top 25] [--min 1] [--depth 14] [--folded out.txt]
 *     [--focus <function name>]   the tree rooted at every frame of that name (e.g. a route handler)
 */
import fs from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface NodeCpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** `name file:line` with the file relative to the repository (dependencies by package name). */
export function frameLabel(f: CallFrame): string {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return name;
  let file = f.url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) file = file.slice(nm + 'node_modules/'.length);
  else if (file.startsWith(ROOT)) file = path.relative(ROOT, file);
  // tsx hands V8 transformed code, whose positions are not the source's: name the file only.
  return f.url.includes('node_modules') || f.url.startsWith('node:')
    ? `${name} ${file}:${f.lineNumber + 1}`
    : `${name} ${file}`;
}

export interface ProfileSummary {
  totalMs: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
  tree: TreeNode;
}

export interface TreeNode {
  label: string;
  ms: number;
  children: Map<string, TreeNode>;
}

/** Sample durations: each sample lasts until the next one (the last one gets the mean interval). */
function sampleMs(profile: NodeCpuProfile): number[] {
  const n = profile.samples.length;
  const out = new Array<number>(n);
  const mean = n > 1 ? (profile.endTime - profile.startTime) / n / 1000 : 0;
  for (let i = 0; i < n; i++) out[i] = i + 1 < n ? profile.timeDeltas[i + 1] / 1000 : mean;
  return out;
}

/** Profile clock (µs, shared by the threads of one process): only samples in [from, to) count. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** Several profiles (e.g. the slices of one measured call) summed into one summary. */
export function summarise(profiles: NodeCpuProfile[], focus?: string, window?: TimeWindow): ProfileSummary {
  const s: ProfileSummary = {
    totalMs: 0,
    self: new Map(),
    inclusive: new Map(),
    tree: { label: focus ? `frames named ${focus}` : '(all)', ms: 0, children: new Map() },
  };
  for (const p of profiles) addProfile(p, s, focus, window);
  return s;
}

function addProfile(
  profile: NodeCpuProfile,
  into: ProfileSummary,
  focus?: string,
  window?: TimeWindow,
): void {
  const { self, inclusive, tree } = into;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = new Map<number, string[]>();
  const stack = (id: number): string[] => {
    const known = stackOf.get(id);
    if (known) return known;
    const labels: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const label = frameLabel(byId.get(at)!.callFrame);
      if (label !== '(root)') labels.unshift(label);
    }
    stackOf.set(id, labels);
    return labels;
  };
  const durations = sampleMs(profile);
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (window && (at < window.from || at >= window.to)) continue;
    let labels = stack(profile.samples[i]);
    if (focus) {
      const at = labels.findIndex((l) => l.split(' ')[0] === focus);
      if (at < 0) continue;
      labels = labels.slice(at);
    }
    const ms = durations[i];
    into.totalMs += ms;
    const leaf = labels[labels.length - 1] ?? '(root)';
    self.set(leaf, (self.get(leaf) ?? 0) + ms);
    for (const l of new Set(labels)) inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
    let node = tree;
    node.ms += ms;
    for (const l of labels) {
      let child = node.children.get(l);
      if (!child) {
        child = { label: l, ms: 0, children: new Map() };
        node.children.set(l, child);
      }
      child.ms += ms;
      node = child;
    }
  }
}

export function foldedStacks(profile: NodeCpuProfile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const durations = sampleMs(profile);
  const folded = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const labels: string[] = [];
    for (let at: number | undefined = profile.samples[i]; at !== undefined; at = parent.get(at)) {
      labels.unshift(frameLabel(byId.get(at)!.callFrame).replaceAll(';', ','));
    }
    const key = labels.join(';');
    folded.set(key, (folded.get(key) ?? 0) + durations[i] * 1000);
  }
  return [...folded].map(([k, us]) => `${k} ${Math.round(us)}`).join('\n');
}

const pct = (ms: number, total: number) => `${((100 * ms) / total).toFixed(1).padStart(5)} %`;

export function formatTable(rows: Map<string, number>, total: number, top: number): string {
  return [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([label, ms]) => `  ${ms.toFixed(0).padStart(7)} ms ${pct(ms, total)}  ${label}`)
    .join('\n');
}

export function formatTree(tree: TreeNode, total: number, minPercent: number, maxDepth: number): string {
  const lines: string[] = [];
  const walk = (node: TreeNode, depth: number) => {
    const kids = [...node.children.values()]
      .filter((c) => (100 * c.ms) / total >= minPercent)
      .sort((a, b) => b.ms - a.ms);
    for (const c of kids) {
      lines.push(`  ${pct(c.ms, total)} ${'  '.repeat(depth)}${c.label}`);
      if (depth + 1 < maxDepth) walk(c, depth + 1);
    }
  };
  walk(tree, 0);
  return lines.join('\n');
}

function main(argv: string[]): void {
  const files = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (files.length === 0) {
    console.error(
      'usage: tsx bench/cpu-profile.ts <file.cpuprofile>… [--top N] [--min %] [--depth N] [--focus name] [--folded out.txt]',
    );
    process.exit(2);
  }
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const profiles = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as NodeCpuProfile);
  const focus = opt('focus');
  const s = summarise(profiles, focus);
  const top = Number(opt('top') ?? 25);
  const wall = profiles.reduce((t, p) => t + (p.endTime - p.startTime) / 1000, 0);
  console.log(
    `${files.map((f) => path.basename(f)).join(', ')}: ${wall.toFixed(0)} ms profiled, ${s.totalMs.toFixed(0)} ms in the samples shown` +
      (focus ? ` (under frames named ${focus})` : ''),
  );
  console.log(`\nself time by function (top ${top}):\n${formatTable(s.self, s.totalMs, top)}`);
  console.log(`\ntotal time by function (top ${top}):\n${formatTable(s.inclusive, s.totalMs, top)}`);
  console.log(
    `\ntop-down (≥ ${opt('min') ?? 1} %):\n${formatTree(s.tree, s.totalMs, Number(opt('min') ?? 1), Number(opt('depth') ?? 14))}`,
  );
  const folded = opt('folded');
  if (folded) fs.writeFileSync(folded, `${profiles.map(foldedStacks).join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2));
}
