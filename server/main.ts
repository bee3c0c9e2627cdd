import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './app';
import { deleteExpiredSessions } from './auth/sessions';
import { DEMO_ACCOUNT, seedDemoAccount } from './auth/users';
import { importDemoFilmsIfEmpty } from './films/demo';
import { installShutdown, loadConfigOrExit } from './lib/process-lifecycle';
import { linkNotice } from './lib/public-url';
import { scheduleLeftoverSweeps } from './takes/leftovers';
import { wordCheckStatusLines } from './words';
import { deleteOldUsage } from './takes/retention';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');

/** Builds the client once when dist/ is missing, so `npm install && npm start` is enough. */
async function ensureClientBuilt(log: (msg: string) => void): Promise<void> {
  if (fs.existsSync(path.join(DIST, 'index.html'))) return;
  log('dist/index.html is missing: building the client with vite (first start only)…');
  try {
    const { build: viteBuild } = await import('vite');
    await viteBuild({ root: ROOT, logLevel: 'warn' });
  } catch (err) {
    // The services stay useful without the client; say plainly what is missing.
    log(
      `The client build failed, so only /producer and /ai are served: ${err instanceof Error ? err.message : err}`,
    );
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (config.serveClient) await ensureClientBuilt((m) => console.log(m));
  // build() runs the migrations (db plugin) before the server listens.
  const app = await build(config, { spaRoot: config.serveClient ? DIST : undefined });
  await app.ready();

  if (config.demoContent && (await seedDemoAccount(app.db))) {
    app.log.info(
      `Demo account created: account "${DEMO_ACCOUNT.account}", password "${DEMO_ACCOUNT.password}"`,
    );
    console.log(`\n  Demo account — account: ${DEMO_ACCOUNT.account}  password: ${DEMO_ACCOUNT.password}\n`);
  }
  if (config.demoContent) await importDemoFilmsIfEmpty(app, path.join(ROOT, 'demo', 'films'));

  await deleteExpiredSessions(app.db);
  const sweeps = await scheduleLeftoverSweeps(app);
  const housekeeping = setInterval(() => {
    deleteExpiredSessions(app.db).catch((err) => app.log.warn({ err }, 'session cleanup failed'));
    deleteOldUsage(app.db).catch((err) => app.log.warn({ err }, 'upload usage cleanup failed'));
  }, 3_600_000);
  housekeeping.unref();
  installShutdown(app, [housekeeping, ...sweeps]);

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const what = config.serveClient ? 'the app, /producer and /ai' : '/producer and /ai';
  console.log(
    `  Serving ${what} on http://127.0.0.1:${port}/ (${app.dbEngine}, media: ${app.storage.kind})\n  ${linkNotice(config, port)}\n`,
  );
  // Takes are scored here unless a queue hands them to scoring workers, which say it themselves.
  if (!config.redisUrl) for (const line of wordCheckStatusLines()) console.log(`  ${line}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
