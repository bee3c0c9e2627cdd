import fs from 'node:fs';
import path from 'node:path';
import type { Engine, EngineName, EnginePage } from './engine';
import { launchFirefox } from './firefox';
import { type Pulse, startPulse } from './pulse';
import { keepAudioThreadsRealtime } from './realtime';
import { launchWebKit, launchWpe } from './webkit';
import { type Display, startXvfb } from './xvfb';

export const ENGINES_DIR = path.resolve(import.meta.dirname, '../../../test-results/engines');

export interface EngineRun {
  engine: Engine;
  pulse: Pulse;
  /** Ends the browser, then the display and the sound server, each by its own process. */
  stop: () => Promise<void>;
}

/**
 * Everything one engine needs here, started for a test file and stopped by it: a private PulseAudio
 * server (the wav microphone and an output device), a virtual display (WebKitGTK only; Firefox and
 * WPE run headless), and the browser, with their audio threads in real time as on a desktop
 * (./realtime.ts).
 */
export async function startEngine(name: EngineName): Promise<EngineRun> {
  const realtime = keepAudioThreadsRealtime();
  let pulse: Pulse | undefined;
  let display: Display | undefined;
  try {
    pulse = await startPulse();
    if (name === 'webkit') display = await startXvfb();
    const env = { ...pulse.env, ...(display ? { DISPLAY: display.display } : {}) };
    const engine =
      name === 'firefox'
        ? await launchFirefox(env)
        : name === 'webkit'
          ? await launchWebKit(env)
          : await launchWpe(env);
    record({ engine: name, what: 'launch', ms: engine.launchMs, version: engine.version });
    return {
      engine,
      pulse,
      stop: async () => {
        await engine.close();
        await display?.stop();
        await pulse?.stop();
        console.log(`[engines] ${name} audio threads run in real time: ${realtime.stop().join(', ')}`);
      },
    };
  } catch (err) {
    await display?.stop();
    await pulse?.stop();
    realtime.stop();
    throw err;
  }
}

/**
 * Waits until `expression` is truthy in the page (a promise's value, when it yields one), asking the
 * page every 50 ms (a driver's evaluation is not subject to the page's Content-Security-Policy, unlike
 * an eval inside the page).
 */
export async function waitFor(page: EnginePage, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await page.evaluate<boolean>(`(async () => Boolean(await (${expression})))()`)) return;
    } catch (err) {
      // A navigation in between reads as "not yet".
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${timeoutMs} ms for ${expression}${last ? ` (last error: ${last})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Timing {
  engine: EngineName;
  what: string;
  ms: number;
  version?: string;
}

/**
 * Prints one timing line (`[engines] firefox launch 7249 ms`) and appends it to
 * test-results/engines/timings.jsonl, so the suite's own output is where the figures come from.
 */
export function record(t: Timing): void {
  fs.mkdirSync(ENGINES_DIR, { recursive: true });
  const line = `[engines] ${t.engine} ${t.what} ${Math.round(t.ms)} ms${t.version ? ` (${t.version})` : ''}`;
  console.log(line);
  fs.appendFileSync(
    path.join(ENGINES_DIR, 'timings.jsonl'),
    `${JSON.stringify({ ...t, at: new Date().toISOString() })}\n`,
  );
}

/** Screenshots of a journey's screens: test-results/engines/<engine>-<journey>-<screen>.png. */
export function shotPath(engine: EngineName, journey: string, screen: string): string {
  fs.mkdirSync(ENGINES_DIR, { recursive: true });
  return path.join(ENGINES_DIR, `${engine}-${journey}-${screen}.png`);
}
