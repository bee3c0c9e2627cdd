import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';

/**
 * Builds the client for production into a temporary folder and serves it with Vite's preview server on a
 * free port (history fallback included), for browser tests that need no producer service.
 */
export async function serveBuiltApp(root = process.cwd()) {
  const outDir = await mkdtemp(join(tmpdir(), 'app-build-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    // No proxy to a producer: these tests run without one (API calls get the SPA fallback, i.e. fail).
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false, proxy: {} },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  return {
    origin: url.replace(/\/$/, ''),
    outDir,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
