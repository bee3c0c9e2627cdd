/**
 * npm run bench:api — loads the producer service from a separate process over loopback.
 * The parent starts this same file with --serve as the server child (fresh temp DATA_DIR, demo
 * account, demo films if present), then runs autocannon against the film list and login for ~10 s
 * each and prints requests/s with p50/p99 latency. Env: BENCH_SECONDS, BENCH_CONNECTIONS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function serve(): Promise<void> {
  const { build } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const { seedDemoAccount } = await import('../server/auth/users');
  const { importDemoFilmsIfEmpty } = await import('../server/films/demo');
  const app = await build(loadConfig(process.env));
  await app.ready();
  await seedDemoAccount(app.db);
  const films = await importDemoFilmsIfEmpty(app, path.join(ROOT, 'demo', 'films'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The parent reads this line to know where to send load.
  console.log(JSON.stringify({ ready: true, port, films, engine: app.dbEngine }));
  const stop = () => app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function startChild(
  dataDir: string,
): Promise<{ child: ChildProcess; port: number; films: number; engine: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The bench measures throughput, not the abuse limits.
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        if (line.startsWith('{"ready"')) resolve({ child, ...JSON.parse(line) });
      }
    });
    child.once('exit', (code) => reject(new Error(`server child exited early with code ${code}`)));
  });
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function load(name: string, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const { child, port, films, engine } = await startChild(dataDir);
  const base = `http://127.0.0.1:${port}`;
  try {
    const login = await fetch(`${base}/producer/site_products/login_pwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: 'demo123456' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    console.log(
      `bench:api — ${engine}, ${films} demo film(s), ${CONNECTIONS} connections, ${SECONDS} s per call, ${os.cpus().length} cores`,
    );
    const rows = [
      await load('GET  show_film_picture (prpt)', {
        url: `${base}/producer/active_relation_two/show_film_picture?_v=1`,
        headers: { token },
      }),
      await load('POST show_film_picture (prpo)', {
        url: `${base}/producer/active_relation_one/show_film_picture`,
        method: 'POST',
        headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
        body: '_v=1&page=1',
      }),
      await load('POST login_pwd (argon2id)', {
        url: `${base}/producer/site_products/login_pwd`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'demo', password: 'demo123456' }),
      }),
    ];
    console.log('');
    console.log('call                              req/s     p50 ms   p99 ms   requests  non-2xx  errors');
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(32)} ${r.rps.toFixed(1).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${String(r.total).padStart(10)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) {
  serve().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
