import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../../src/audio/constants';
import { micFixture } from '../../e2e/recording-helpers';
import { type EngineRun, startEngine, waitFor } from '../../support/engines/harness';
import { KIOSK } from '../../support/journey/sizes';
import { defineEngineJourneys } from '../journeys';
import type { CaptureSmoke } from './harness/main';

// WPE WebKit 2.38 (cog through WPEWebDriver, headless): no Wasm SIMD and no getUserMedia. Part one
// whole, and part two up to the dub page saying it cannot record here.
defineEngineJourneys('wpe', ['prpo', 'prpt-no-mic']);

const HARNESS = path.resolve(import.meta.dirname, 'harness');

/**
 * tests/engines/wpe/harness built by Vite (module workers and the worklet as in the app's own build,
 * vite.config.ts) and served with the microphone fixture beside it.
 */
async function serveHarness(): Promise<{ origin: string; close: () => Promise<void> }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'wpe-harness-'));
  const config = { root: HARNESS, configFile: false as const, logLevel: 'warn' as const };
  await build({ ...config, worker: { format: 'es' }, build: { outDir, emptyOutDir: true } });
  fs.copyFileSync(micFixture().path, path.join(outDir, 'mic.wav'));
  const server = await preview({
    ...config,
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  return {
    origin: url.replace(/\/$/, ''),
    close: async () => {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

// WPE cannot record, so the dub page's capture path is driven by a decoded recording instead of a
// microphone: the same AudioWorklet recorder and encoder worker, on the plain-JS dot-product kernel
// (src/audio/dsp/dot.ts), as on an iPhone whose Safari predates Wasm SIMD.
describe('wpe: the capture path without Wasm SIMD', () => {
  let run: EngineRun;
  let harness: Awaited<ReturnType<typeof serveHarness>>;

  beforeAll(async () => {
    harness = await serveHarness();
    run = await startEngine('wpe');
  }, 300_000);

  afterAll(async () => {
    await run?.stop();
    await harness?.close();
  });

  test('a decoded recording through the AudioWorklet recorder and the encoder worker: the plain-JS kernel resamples it, reads its pitch and cuts each window whole', async () => {
    const page = await run.engine.newPage(KIOSK);
    try {
      await page.goto(`${harness.origin}/`);
      await waitFor(page, "typeof window.runCaptureSmoke === 'function'", 30_000);
      const smoke = await page.evaluate<CaptureSmoke>("window.runCaptureSmoke('/mic.wav')");
      console.log(`[engines] wpe capture path ${JSON.stringify(smoke)}`);
      expect(smoke.kernel, 'the dot-product kernel the take ran on').toBe('js');
      expect(smoke.windows.map((w) => w.id)).toEqual(['line-1', 'line-2']);
      for (const w of smoke.windows) {
        expect(w.complete, `${w.id} complete`).toBe(true);
        // Each line lasts 1 s; its window adds the margin on both sides, less at most the trailing
        // margin where the voice had stopped before the line's end (src/audio/dsp/windows.ts); ±20 ms.
        const full = (1 + 2 * DEFAULT_WINDOW_MARGIN_SECONDS) * 1000;
        expect(w.durationMs, `${w.id} length`).toBeGreaterThanOrEqual(
          full - DEFAULT_WINDOW_MARGIN_SECONDS * 1000 - 20,
        );
        expect(w.durationMs, `${w.id} length`).toBeLessThanOrEqual(full + 20);
        expect(w.wavBytes).toBeGreaterThan(44);
      }
      expect(smoke.voicedStats, 'live pitch heard the voice').toBeGreaterThan(0);
      expect(await page.errors()).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
