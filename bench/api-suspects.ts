/**
 * A server CPU profile cut by the usual suspects of an API's cost. Each sample goes to one bucket.
 * Some suspects claim everything they call (logging: pino's JSON and its writes; the rate limiter;
 * load shedding; validation; serialisation; multipart; the worker pool): the innermost frame of
 * such a suspect on the stack decides. Otherwise, walking from the sampled frame towards the root,
 * the first frame that belongs to a suspect decides (so Kysely compiling the token lookup's query
 * counts as query building, not as the token lookup). Shares add up to 100 % of the samples.
 *
 * The sampler takes wall-clock samples of the thread: when the machine is loaded and the thread
 * waits for a core, the sample still lands on its stack, so times per request grow with the load;
 * the shares are what to compare.
 */
import type { NodeCpuProfile } from './cpu-profile';

interface Rule {
  bucket: string;
  test: (url: string, fn: string) => boolean;
  /** Everything this suspect calls is counted as this suspect. */
  claims?: boolean;
}

const pkg = (...names: string[]) => {
  const re = new RegExp(`node_modules/(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})/`);
  return (url: string) => re.test(url);
};

const SQLITE_PREPARE = 'SQLite: compiling each statement (prepare)';
const SQLITE_STEP = 'SQLite: running statements (all/get/run)';

const RULES: Rule[] = [
  { bucket: 'idle (waiting for I/O)', test: (_u, fn) => fn === '(idle)' },
  { bucket: 'garbage collection', test: (_u, fn) => fn === '(garbage collector)' },
  {
    claims: true,
    bucket: 'logging (pino)',
    test: (u) =>
      pkg('pino', 'sonic-boom', 'thread-stream', 'pino-std-serializers', 'abstract-logging')(u) ||
      /fastify\/lib\/logger/.test(u),
  },
  {
    claims: true,
    bucket: 'rate limiter (@fastify/rate-limit)',
    test: (u) => pkg('@fastify/rate-limit', 'toad-cache')(u),
  },
  {
    claims: true,
    bucket: 'load shedding (@fastify/under-pressure)',
    test: (u) => pkg('@fastify/under-pressure')(u),
  },
  {
    claims: true,
    bucket: 'response serialisation (JSON.stringify, fast-json-stringify)',
    test: (u, fn) =>
      pkg('fast-json-stringify')(u) ||
      (fn === 'stringify' && !u) ||
      (/fastify\/lib\/reply/.test(u) && /serialize/i.test(fn)),
  },
  { claims: true, bucket: 'request validation (zod)', test: (u) => pkg('zod')(u) },
  {
    claims: true,
    bucket: 'multipart parsing (@fastify/multipart)',
    test: (u) => pkg('@fastify/multipart', '@fastify/busboy', 'busboy', 'streamsearch')(u),
  },
  {
    claims: true,
    bucket: 'worker pool hand-off (piscina, worker messages)',
    test: (u) => pkg('piscina')(u) || /node:internal\/worker/.test(u),
  },
  {
    bucket: 'file writes (media storage)',
    test: (u) => /node:internal\/fs|node:fs/.test(u) || /server\/storage\//.test(u),
  },
  {
    bucket: 'query building (kysely builder + compiler)',
    test: (u) =>
      /node_modules\/kysely\/dist\/\w+\/(query-builder|query-compiler|operation-node|parser|expression|dynamic|raw-builder|util|query-creator|schema)/.test(
        u,
      ) || /node_modules\/kysely\/dist\/\w+\/kysely\.js/.test(u),
  },
  {
    bucket: 'query execution (kysely driver layer)',
    test: (u) => /node_modules\/kysely\/dist\/\w+\/(dialect|driver|query-executor|plugin)/.test(u),
  },
  { bucket: 'SQLite: compiling each statement (prepare)', test: (u) => pkg('better-sqlite3')(u) },
  {
    claims: true,
    bucket: 'PostgreSQL client (pg, its socket I/O included)',
    test: (u) => pkg('pg', 'pg-protocol', 'pg-pool', 'pg-types', 'postgres-array', 'pg-connection-string')(u),
  },
  {
    bucket: 'token lookup (our code: auth, sessions, sha256)',
    test: (u) => /server\/(plugins\/auth|auth\/sessions)\.ts/.test(u),
  },
  {
    bucket: 'our handlers and queries (server/, src/)',
    test: (u) => /\/(server|src)\//.test(u) && !u.includes('node_modules'),
  },
  {
    bucket: 'Fastify core (routing, hooks, reply, body parsing)',
    test: (u) =>
      pkg(
        'fastify',
        'find-my-way',
        'avvio',
        '@fastify/error',
        'fast-querystring',
        'secure-json-parse',
        '@fastify/formbody',
        '@fastify/cookie',
        'fastify-plugin',
        'light-my-request',
        'process-warning',
        'rfdc',
        '@fastify/ajv-compiler',
        'content-type',
        'fast-uri',
      )(u),
  },
  { bucket: 'Node crypto (token hash, ids)', test: (u) => /node:internal\/crypto|node:crypto/.test(u) },
  {
    bucket: 'Node HTTP and sockets',
    test: (u) =>
      /node:(internal\/)?(_http|http|net|stream|internal\/streams|internal\/stream_base|timers|internal\/timers|events|buffer|internal\/url|url)/.test(
        u,
      ) || /^node:_http/.test(u),
  },
  {
    bucket: 'microtasks, promises, async hooks',
    test: (u, fn) => /node:internal\/(process\/task_queues|async_hooks)/.test(u) || fn === 'runMicrotasks',
  },
];

const CLAIMING = RULES.filter((r) => r.claims);

export function apiSuspects(profiles: NodeCpuProfile[]): { totalMs: number; shares: Map<string, number> } {
  const shares = new Map<string, number>();
  let totalMs = 0;
  for (const p of profiles) totalMs += addShares(p, shares);
  return { totalMs, shares };
}

function addShares(profile: NodeCpuProfile, shares: Map<string, number>): number {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const bucketOf = new Map<number, string>();
  const bucket = (id: number): string => {
    const known = bucketOf.get(id);
    if (known) return known;
    let found: string | null = null;
    const leafFrame = byId.get(id)!.callFrame;
    let caller = parent.get(id);
    // The bench's own statement counter (bench/api-server.ts) wraps prepare: look through it.
    while (caller !== undefined && byId.get(caller)!.callFrame.url.includes('/bench/'))
      caller = parent.get(caller);
    if (!leafFrame.url && /^(Statement|prepare)$/.test(leafFrame.functionName)) found = SQLITE_PREPARE;
    else if (
      !leafFrame.url &&
      caller !== undefined &&
      /dialect\/sqlite/.test(byId.get(caller)!.callFrame.url)
    )
      found = SQLITE_STEP;
    for (let at: number | undefined = id; at !== undefined && !found; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      found = CLAIMING.find((r) => r.test(f.url, f.functionName))?.bucket ?? null;
    }
    for (let at: number | undefined = id; at !== undefined && !found; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      found = RULES.find((r) => r.test(f.url, f.functionName))?.bucket ?? null;
    }
    const leaf = byId.get(id)!.callFrame;
    const b =
      found ?? `other: ${leaf.functionName || '(anonymous)'} ${leaf.url.replace(/^.*node_modules\//, '')}`;
    bucketOf.set(id, b);
    return b;
  };
  let totalMs = 0;
  const n = profile.samples.length;
  for (let i = 0; i < n; i++) {
    const ms = (i + 1 < n ? profile.timeDeltas[i + 1] : 0) / 1000;
    const b = bucket(profile.samples[i]);
    shares.set(b, (shares.get(b) ?? 0) + ms);
    totalMs += ms;
  }
  return totalMs;
}

/** One line per suspect: sampled µs per request (grows with the machine's load) and share. */
export function formatSuspects(
  s: { totalMs: number; shares: Map<string, number> },
  requests: number,
  file: string,
): string {
  const busy = s.totalMs - (s.shares.get('idle (waiting for I/O)') ?? 0);
  const rows = [...s.shares]
    .sort((a, b) => b[1] - a[1])
    .filter(([, ms]) => ms / s.totalMs >= 0.002)
    .map(
      ([label, ms]) =>
        `      ${((ms * 1000) / requests).toFixed(0).padStart(6)} µs ${((100 * ms) / s.totalMs).toFixed(1).padStart(5)} %  ${label}`,
    );
  return [
    `    CPU profile of our server (${file}): ${((busy * 1000) / requests).toFixed(0)} µs sampled busy per request over ${requests} requests`,
    ...rows,
  ].join('\n');
}
