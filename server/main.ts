import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './app';
import { deleteExpiredSessions } from './auth/sessions';
import { DEMO_ACCOUNT, seedDemoAccount } from './auth/users';
import { importDemoFilmsIfEmpty } from './films/demo';
import { installShutdown, loadConfigOrExit } from './lib/process-lifecycle';

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
  await ensureClientBuilt((m) => console.log(m));
  // build() runs the migrations (db plugin) before the server listens.
  const app = await build(config, { spaRoot: DIST });
  await app.ready();

  if (await seedDemoAccount(app.db)) {
    app.log.info(
      `Demo account created: account "${DEMO_ACCOUNT.account}", password "${DEMO_ACCOUNT.password}"`,
    );
    console.log(`\n  Demo account — account: ${DEMO_ACCOUNT.account}  password: ${DEMO_ACCOUNT.password}\n`);
  }
  await importDemoFilmsIfEmpty(app, path.join(ROOT, 'demo', 'films'));

  await deleteExpiredSessions(app.db);
  const housekeeping = setInterval(() => {
    deleteExpiredSessions(app.db).catch((err) => app.log.warn({ err }, 'session cleanup failed'));
  }, 3_600_000);
  housekeeping.unref();
  installShutdown(app, [housekeeping]);

  await app.listen({ port: config.port, host: config.host });
  console.log(`  Serving the app, /producer and /ai on http://127.0.0.1:${config.port}/ (${app.dbEngine})\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
