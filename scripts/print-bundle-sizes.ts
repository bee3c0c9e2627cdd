/**
 * Prints the JavaScript each route loads (raw and gzip) from the Vite manifest, and the first screen's
 * total with the bytes served (the build's .br copies, scripts/precompress.ts), then fails if a
 * route's screen landed in the entry chunk, the first screen is over budget, or a script or style
 * sheet above the precompress size has no .br and .gz copy.
 * The routes and their screens come from the route table the router is built from.
 * Run by `npm run build` after `vite build --manifest`. Usage: tsx scripts/print-bundle-sizes.ts [distDir]
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { NOT_FOUND, ROOT_REDIRECT, ROUTES, screenFile } from '../src/app/lib/route-table';
import { PRECOMPRESS_MIN_BYTES } from './precompress';

/**
 * The first screen loads at most 101 KB of gzip'd JavaScript (README, Scripts: `npm run build`); the
 * server sends it br-compressed (about 87 KB), and gzip where br is not accepted.
 */
const FIRST_SCREEN_BUDGET_GZIP = 101 * 1024;
/** `/` redirects here (ROOT_REDIRECT, src/app/lib/route-table.ts), so this page is the first screen of a fresh visit. */
const FIRST_ROUTE = ROOT_REDIRECT;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = resolve(process.argv[2] ?? 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: build with \`vite build --manifest\` first (npm run build does).`);
  process.exit(1);
}
const manifest: Manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const sizeCache = new Map<string, { raw: number; gzip: number }>();
function size(file: string) {
  let s = sizeCache.get(file);
  if (!s) {
    const bytes = readFileSync(join(dist, file));
    s = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    sizeCache.set(file, s);
  }
  return s;
}

/** The chunk and everything it imports statically (what the browser must fetch before running it). */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no entry ${key}`);
  into.add(key);
  for (const k of chunk.imports ?? []) closure(k, into);
  return into;
}

const total = (keys: Iterable<string>) => {
  let raw = 0;
  let gzip = 0;
  for (const k of keys) {
    const s = size(manifest[k].file);
    raw += s.raw;
    gzip += s.gzip;
  }
  return { raw, gzip };
};

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk');
const entry = closure(entryKey);
const entryTotal = total(entry);

console.log(
  `\nEntry (${manifest[entryKey].file} + ${entry.size - 1} static imports): ${kb(entryTotal.raw)} raw, ${kb(entryTotal.gzip)} gzip\n`,
);
console.log(
  `${pad('route', 26)}${pad('screen chunk', 40)}${lpad('raw', 10)}${lpad('gzip', 10)}${lpad('route-only gzip', 18)}`,
);

const problems: string[] = [];
const pages = [
  ...ROUTES.map((r) => ({ route: r.path, screen: r.screen })),
  { route: '(404)', screen: NOT_FOUND.screen },
];
let firstScreen = entryTotal;
for (const { route, screen } of pages) {
  const key = screenFile(screen);
  const chunk = manifest[key];
  if (!chunk) {
    problems.push(`${route}: ${key} is not its own chunk (not in the manifest)`);
    continue;
  }
  if (entry.has(key)) problems.push(`${route}: ${key} is bundled into the entry instead of a lazy chunk`);
  const own = size(chunk.file);
  const exclusive = [...closure(key)].filter((k) => !entry.has(k));
  const routeOnly = total(exclusive);
  console.log(
    `${pad(route, 26)}${pad(chunk.file, 40)}${lpad(kb(own.raw), 10)}${lpad(kb(own.gzip), 10)}${lpad(kb(routeOnly.gzip), 18)}`,
  );
  if (route === FIRST_ROUTE) firstScreen = total(new Set([...entry, ...exclusive]));
}

/** Bytes of the build's Brotli copy (what a browser that takes br is sent), else of the file. */
const served = (keys: Iterable<string>) => {
  let n = 0;
  for (const k of keys) {
    const file = join(dist, manifest[k].file);
    n += existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size;
  }
  return n;
};
const firstScreenKeys = (() => {
  const row = ROUTES.find((r) => r.path === FIRST_ROUTE);
  return row ? new Set([...entry, ...closure(screenFile(row.screen))]) : entry;
})();
console.log(
  `\nFirst screen (${FIRST_ROUTE}, what / redirects to): ${kb(firstScreen.raw)} raw, ${kb(firstScreen.gzip)} gzip JS ` +
    `(budget ${kb(FIRST_SCREEN_BUDGET_GZIP)}); served as br: ${kb(served(firstScreenKeys))}`,
);
if (firstScreen.gzip > FIRST_SCREEN_BUDGET_GZIP) {
  problems.push(
    `the first screen loads ${kb(firstScreen.gzip)} gzip JS, over the ${kb(FIRST_SCREEN_BUDGET_GZIP)} budget`,
  );
}

const others = Object.entries(manifest)
  .filter(
    ([k, c]) => c.file.endsWith('.js') && !entry.has(k) && !pages.some((p) => screenFile(p.screen) === k),
  )
  .map(([, c]) => ({ file: c.file, ...size(c.file) }))
  .sort((a, b) => b.gzip - a.gzip);
if (others.length) {
  console.log('\nOther chunks (imported by route screens, or loaded lazily from them):');
  for (const o of others)
    console.log(`  ${pad(o.file, 56)}${lpad(kb(o.raw), 10)}${lpad(kb(o.gzip), 10)} gzip`);
}

// zod is for the development-only contract check (src/api/validate.ts): a production chunk with it
// means something imported the contract's schemas instead of src/api/contract/constants.ts or types.
const withZod = Object.values(manifest)
  .filter((c) => c.file.endsWith('.js') && readFileSync(join(dist, c.file), 'utf8').includes('ZodError'))
  .map((c) => c.file);
for (const file of withZod) problems.push(`${file} carries zod, which production code must not import`);

// Every script and style sheet worth compressing goes out as its build-time copy (server/plugins/spa.ts).
const assetFiles = new Set(Object.values(manifest).flatMap((c) => [c.file, ...(c.css ?? [])]));
for (const file of assetFiles) {
  const full = join(dist, file);
  if (statSync(full).size < PRECOMPRESS_MIN_BYTES) continue;
  const missing = ['.br', '.gz'].filter((ext) => !existsSync(full + ext));
  if (missing.length) problems.push(`${file} has no ${missing.join(' / ')} copy (scripts/precompress.ts)`);
}

if (problems.length) {
  console.error(`\nBundle check failed:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log(
  '\nEvery route screen is split from the entry; no chunk carries zod; every script and style sheet above ' +
    `${PRECOMPRESS_MIN_BYTES} bytes has its .br and .gz copies.`,
);
