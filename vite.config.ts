import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { FIRST_SCREEN_CHUNK, firstScreenChunk } from './scripts/first-screen-chunk.ts';
import { precompress } from './scripts/precompress.ts';

// One config for the client build and for every test layer (vitest projects):
// - unit:   pure code and components, in happy-dom
// - server: the producer and AI services against real SQLite and PostgreSQL, in node
// - cluster: several instances, workers, nginx, Redis and S3 as real processes
// - e2e:    whole journeys in real Chromium against a real server (slow, run last)
export default defineConfig({
  // precompress: .br and .gz beside each text asset, served as they are (scripts/precompress.ts).
  plugins: [react(), precompress()],
  resolve: {
    // React 19 has useSyncExternalStore: the shim's fallback (src/app/lib/use-sync-external-store-shim.ts).
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: path.resolve(import.meta.dirname, 'src/app/lib/use-sync-external-store-shim.ts'),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/producer': 'http://127.0.0.1:8080',
      '/ai': 'http://127.0.0.1:8080',
    },
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // The first screen's modules as one chunk (scripts/first-screen-chunk.ts).
      output: {
        codeSplitting: {
          groups: [{ name: firstScreenChunk(import.meta.dirname), debugName: FIRST_SCREEN_CHUNK }],
        },
      },
    },
  },
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/security/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Several real processes (nginx, two app instances, two scoring workers, s3rver) over
          // PostgreSQL and Redis: tests/cluster/support/cluster.ts.
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The learner journeys in Firefox ESR and WebKitGTK, each with its own PulseAudio (and Xvfb):
          // tests/engines/journeys.ts, tests/support/engines/.
          name: 'engines',
          environment: 'node',
          include: ['tests/engines/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // WPE WebKit 2.38 (tests/engines/wpe/): outside `npm test`, because its web process died once
          // in seven runs while the clip played (README, "Tests").
          name: 'engines-wpe',
          environment: 'node',
          include: ['tests/engines/wpe/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
