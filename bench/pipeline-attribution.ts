/**
 * What the main-thread long tasks of bench:pipeline are made of. Two sources, both mapped back from
 * the production bundle to src/ through the build's hidden source maps:
 *  - Long Animation Frame entries (`long-animation-frame`, Chromium): per frame > 50 ms, the script
 *    callbacks that ran (invoker, source URL, char position, duration) plus the rendering part;
 *  - optionally (`BENCH_TRACE=1`) a Chrome trace of the take: each main-thread task > 50 ms broken
 *    down into exclusive time per trace event (script by source function, style, layout, paint, GC …);
 *  - optionally (`BENCH_PROFILE=1`) a CDP sampling CPU profile: busy stretches > 50 ms between idle
 *    samples, their self time by source file and by the deepest frame under src/ (which component).
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The same production build as the recording tests, plus hidden source maps (bundle code unchanged). */
export async function buildClientWithMaps(): Promise<{ outDir: string; remove: () => Promise<void> }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'bench-build-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: 'hidden' } });
  return { outDir, remove: () => rm(outDir, { recursive: true, force: true }) };
}

// --- source maps (mappings decoder; enough for lookups) ------------------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** [generatedColumn, sourceIndex, sourceLine, sourceColumn, nameIndex?] per segment, per generated line. */
type Segment = number[];

function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const lineText of mappings.split(';')) {
    state[0] = 0;
    const segments: Segment[] = [];
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64_INDEX.get(ch);
        if (digit === undefined) throw new Error(`bad source map character ${ch}`);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const out: Segment = [];
      for (let i = 0; i < values.length; i++) {
        state[i] += values[i];
        out.push(state[i]);
      }
      segments.push(out);
    }
    lines.push(segments);
  }
  return lines;
}

interface LoadedMap {
  sources: string[];
  names: string[];
  lines: Segment[][];
  /** Offsets of line starts in the generated file, for char positions. */
  lineStarts: number[];
}

export interface Place {
  /** Source path relative to the repository (e.g. src/app/screens/dub/dub-screen.tsx or node_modules/react-dom/…). */
  file: string;
  line: number;
  name?: string;
}

export class BundleMaps {
  private readonly maps = new Map<string, LoadedMap | null>();
  constructor(private readonly outDir: string) {}

  private load(url: string): LoadedMap | null {
    let pathname: string;
    try {
      pathname = new URL(url).pathname;
    } catch {
      return null;
    }
    if (this.maps.has(pathname)) return this.maps.get(pathname) ?? null;
    let loaded: LoadedMap | null = null;
    const file = path.join(this.outDir, pathname);
    if (file.startsWith(this.outDir) && fs.existsSync(`${file}.map`)) {
      const raw = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as {
        sources: string[];
        names: string[];
        mappings: string;
        sourceRoot?: string;
      };
      const code = fs.readFileSync(file, 'utf8');
      const lineStarts = [0];
      for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
      const mapDir = path.dirname(file);
      loaded = {
        // Dependencies reached through a symlinked node_modules resolve outside ROOT: keep from node_modules/.
        sources: raw.sources.map((s) =>
          path
            .relative(ROOT, path.resolve(mapDir, raw.sourceRoot ?? '', s))
            .replace(/^(\.\.\/)+/, '')
            .replace(/^.*?\/?(node_modules\/)/, '$1'),
        ),
        names: raw.names,
        lines: decodeMappings(raw.mappings),
        lineStarts,
      };
    }
    this.maps.set(pathname, loaded);
    return loaded;
  }

  /** 0-based line and column in the bundle file at `url`. */
  at(url: string, line: number, column: number): Place | null {
    const map = this.load(url);
    const segs = map?.lines[line];
    if (!map || !segs?.length) return null;
    let lo = 0;
    let hi = segs.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segs[mid][0] <= column) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const seg = segs[Math.max(0, best)];
    if (seg.length < 4) return null;
    return {
      file: map.sources[seg[1]] ?? '?',
      line: seg[2] + 1,
      name: seg.length >= 5 ? map.names[seg[4]] : undefined,
    };
  }

  /** A character offset into the bundle file (LoAF `sourceCharPosition`). */
  atOffset(url: string, offset: number): Place | null {
    const map = this.load(url);
    if (!map || offset < 0) return null;
    let lo = 0;
    let hi = map.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (map.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.at(url, lo, offset - map.lineStarts[lo]);
  }
}

const shortFile = (file: string) =>
  file.startsWith('node_modules/')
    ? file.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1 (dependency)')
    : file;

// --- Long Animation Frames ------------------------------------------------------------------------

export interface LoafScript {
  invoker: string;
  invokerType: string;
  sourceURL: string;
  sourceFunctionName: string;
  sourceCharPosition: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}

export interface Loaf {
  startTime: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: LoafScript[];
}

/** Page script that records LoAF entries into `window.__loafs` (plain JSON, no live entries). */
export const OBSERVE_LOAF = `(() => {
  window.__loafs = [];
  if (!PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) return;
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      window.__loafs.push({
        startTime: e.startTime, duration: e.duration, blockingDuration: e.blockingDuration,
        renderStart: e.renderStart, styleAndLayoutStart: e.styleAndLayoutStart,
        scripts: e.scripts.map((s) => ({
          invoker: s.invoker, invokerType: s.invokerType, sourceURL: s.sourceURL,
          sourceFunctionName: s.sourceFunctionName, sourceCharPosition: s.sourceCharPosition,
          duration: s.duration, forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration,
        })),
      });
    }
  }).observe({ type: 'long-animation-frame' });
})()`;

export interface Attribution {
  label: string;
  ms: number;
  count: number;
}

function add(into: Map<string, Attribution>, label: string, ms: number): void {
  const a = into.get(label) ?? { label, ms: 0, count: 0 };
  a.ms += ms;
  a.count++;
  into.set(label, a);
}

const top = (m: Map<string, Attribution>, n: number) =>
  [...m.values()].sort((a, b) => b.ms - a.ms).slice(0, n);

/**
 * Per long animation frame: each script callback by invoker and mapped source function, and the
 * frame's rendering part (style, layout, paint) separately. Times in ms, summed over frames.
 */
export function attributeLoafs(
  loafs: Loaf[],
  maps: BundleMaps,
  takeStart = 0,
): { frames: number; top: Attribution[]; worst: string } {
  const by = new Map<string, Attribution>();
  let worst = '';
  let worstMs = 0;
  for (const f of loafs) {
    const before = new Map([...by].map(([k, v]) => [k, v.ms]));
    let scripted = 0;
    for (const s of f.scripts) {
      scripted += s.duration;
      const place = s.sourceURL ? maps.atOffset(s.sourceURL, s.sourceCharPosition) : null;
      const where = place
        ? `${shortFile(place.file)}${place.file.startsWith('node_modules/') ? '' : `:${place.line}`}${place.name ? ` ${place.name}` : ''}`
        : s.sourceURL || '(no source)';
      add(by, `script ${s.invoker} → ${where}`, s.duration);
    }
    const end = f.startTime + f.duration;
    const layoutStart = f.styleAndLayoutStart > 0 ? f.styleAndLayoutStart : end;
    // rAF and ResizeObserver callbacks run between renderStart and styleAndLayoutStart; they are also
    // listed as scripts above, so only what is not script time is counted here.
    let rafScripts = 0;
    for (const s of f.scripts) if (s.invoker.startsWith('FrameRequestCallback')) rafScripts += s.duration;
    const rafPart = f.renderStart > 0 ? Math.max(0, layoutStart - f.renderStart - rafScripts) : 0;
    const layout = f.styleAndLayoutStart > 0 ? end - f.styleAndLayoutStart : 0;
    if (rafPart > 0) add(by, 'rendering: rAF phase outside scripts (video frame, animations)', rafPart);
    if (layout > 0) add(by, 'rendering: style, layout, paint', layout);
    const render = rafPart + layout + rafScripts;
    const other = f.duration - scripted - render + rafScripts;
    if (other > 1) add(by, 'other (between scripts: microtasks, GC, parsing, idle gaps)', other);
    if (f.duration > worstMs) {
      // The longest frame on its own: what it was made of, largest first.
      worstMs = f.duration;
      const parts = [...by]
        .map(([k, v]) => [k, v.ms - (before.get(k) ?? 0)] as const)
        .filter(([, ms]) => ms >= 1)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, ms]) => `${Math.round(ms)} ms ${k}`);
      worst = `${Math.round(f.duration)} ms at ${((f.startTime - takeStart) / 1000).toFixed(1)} s: ${parts.join('; ')}`;
    }
  }
  return { frames: loafs.length, top: top(by, 8), worst };
}

// --- Chrome trace ---------------------------------------------------------------------------------

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    name?: string;
    data?: { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number; type?: string };
    src_file?: string;
    src_func?: string;
    beginData?: { dirtyObjects?: number; totalObjects?: number };
  };
}

/** Categories for `browser.startTracing`: what the performance panel records, without screenshots. */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'v8.execute',
  'disabled-by-default-devtools.timeline',
  ...(process.env.BENCH_TRACE_INVALIDATIONS
    ? [
        'disabled-by-default-devtools.timeline.invalidationTracking',
        'disabled-by-default-devtools.timeline.stack',
      ]
    : []),
];

/**
 * Main-thread tasks (`RunTask`) longer than 50 ms in a Chrome trace of the page, and their exclusive
 * time by trace event: script entries by mapped source function, plus style, layout, paint, GC, parsing.
 */
export function attributeTrace(
  trace: Buffer,
  pageUrlPrefix: string,
  maps: BundleMaps,
): { tasks: number; worstMs: number; totalMs: number; top: Attribution[] } {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
  // The renderer main thread of the page: the CrRendererMain thread whose tasks ran the page's scripts.
  const mains = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const pageThread = traceEvents.find(
    (e) => mains.has(`${e.pid}:${e.tid}`) && e.args?.data?.url?.startsWith(pageUrlPrefix),
  );
  if (!pageThread) return { tasks: 0, worstMs: 0, totalMs: 0, top: [] };
  const key = `${pageThread.pid}:${pageThread.tid}`;
  const events = traceEvents
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === key && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const by = new Map<string, Attribution>();
  let tasks = 0;
  let worst = 0;
  let total = 0;
  const describe = (e: TraceEvent): string => {
    const d = e.args?.data;
    if (
      d?.url &&
      (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction')
    ) {
      // Trace positions are 1-based.
      const place = maps.at(
        d.url,
        Math.max(0, (d.lineNumber ?? 1) - 1),
        Math.max(0, (d.columnNumber ?? 1) - 1),
      );
      if (place)
        return `script ${shortFile(place.file)}${place.file.startsWith('node_modules/') ? '' : `:${place.line} ${place.name ?? d.functionName ?? ''}`}`;
      return `script ${d.functionName || d.url}`;
    }
    if (e.name === 'EventDispatch' && d?.type) return `EventDispatch ${d.type} (native part)`;
    if (e.name === 'RunTask')
      return `RunTask self (posted from ${e.args?.src_func ?? e.args?.src_file ?? '?'})`;
    return e.name;
  };
  let i = 0;
  while (i < events.length) {
    const task = events[i];
    const taskEnd = task.ts + (task.dur ?? 0);
    let j = i + 1;
    while (j < events.length && events[j].ts < taskEnd) j++;
    if (task.name === 'RunTask' && (task.dur ?? 0) > 50_000) {
      tasks++;
      worst = Math.max(worst, (task.dur ?? 0) / 1000);
      total += (task.dur ?? 0) / 1000;
      // Exclusive time of each nested event: its duration minus its direct children's.
      const stack: { e: TraceEvent; end: number; label: string }[] = [];
      const self = new Map<TraceEvent, number>();
      const labelOf = new Map<TraceEvent, string>();
      for (let k = i; k < j; k++) {
        const e = events[k];
        while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
        const parent = stack[stack.length - 1];
        if (parent) self.set(parent.e, (self.get(parent.e) ?? 0) - (e.dur ?? 0));
        self.set(e, (self.get(e) ?? 0) + (e.dur ?? 0));
        // A nested event without its own meaning (v8.run, TimerFire …) inherits the script it runs in.
        const label =
          parent?.label.startsWith('script ') && !isRenderingEvent(e.name) && !isGcEvent(e.name)
            ? describe(e).startsWith('script ')
              ? describe(e)
              : parent.label
            : describe(e);
        labelOf.set(e, label);
        stack.push({ e, end: e.ts + (e.dur ?? 0), label });
      }
      for (const [e, us] of self) if (us > 0) add(by, labelOf.get(e) ?? e.name, us / 1000);
    }
    i = j;
  }
  return { tasks, worstMs: Math.round(worst), totalMs: Math.round(total), top: top(by, 10) };
}

const isRenderingEvent = (name: string) =>
  /^(UpdateLayoutTree|Layout|Paint|PrePaint|Layerize|RecalculateStyles|UpdateLayer|CompositeLayers|Commit|ScheduleStyleRecalculation|HitTest)/.test(
    name,
  );
const isGcEvent = (name: string) => /GC|GarbageCollect/i.test(name);

// --- CDP sampling CPU profile --------------------------------------------------------------------

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Busy stretches (> 50 ms without an idle sample) of a CPU profile and, over them, self time by
 * source file and by the deepest stack frame in this repository's src/ (what our code asked for).
 */
export function attributeProfile(
  profile: CpuProfile,
  maps: BundleMaps,
): { stretches: number; worstMs: number; bySelf: Attribution[]; byOurFrame: Attribution[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const placeOf = new Map<number, Place | null>();
  const place = (id: number) => {
    if (!placeOf.has(id)) {
      const f = byId.get(id)?.callFrame;
      placeOf.set(id, f?.url ? maps.at(f.url, f.lineNumber, f.columnNumber) : null);
    }
    return placeOf.get(id) ?? null;
  };
  const label = (id: number) => {
    const n = byId.get(id);
    const p = place(id);
    if (p)
      return `${shortFile(p.file)}${p.file.startsWith('node_modules/') ? '' : ` ${p.name ?? n?.callFrame.functionName ?? ''}`}`;
    return n?.callFrame.functionName || '(anonymous)';
  };
  const ours = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const p = place(at);
      if (p?.file.startsWith('src/'))
        return `${p.file}:${p.line} ${p.name ?? byId.get(at)?.callFrame.functionName ?? ''}`;
    }
    return `(no frame from src/: ${label(id)})`;
  };
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) {
    t += d;
    times.push(t);
  }
  const idle = (i: number) => byId.get(profile.samples[i])?.callFrame.functionName === '(idle)';
  const bySelf = new Map<string, Attribution>();
  const byOurFrame = new Map<string, Attribution>();
  let stretches = 0;
  let worst = 0;
  let i = 0;
  while (i < profile.samples.length) {
    if (idle(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < profile.samples.length && !idle(j + 1)) j++;
    const end = j + 1 < times.length ? times[j + 1] : times[j];
    const ms = (end - times[i]) / 1000;
    if (ms > 50) {
      stretches++;
      worst = Math.max(worst, ms);
      for (let k = i; k <= j; k++) {
        const dt = ((k + 1 < times.length ? times[k + 1] : times[k]) - times[k]) / 1000;
        const id = profile.samples[k];
        add(bySelf, label(id), dt);
        add(byOurFrame, ours(id), dt);
      }
    }
    i = j + 1;
  }
  return { stretches, worstMs: Math.round(worst), bySelf: top(bySelf, 8), byOurFrame: top(byOurFrame, 10) };
}

export const formatAttribution = (rows: Attribution[]) =>
  rows.map((r) => `    ${r.ms.toFixed(0).padStart(6)} ms  ${r.label}`).join('\n');
