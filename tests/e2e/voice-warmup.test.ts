import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../support/browser';
import { type JourneyApp, startJourneyApp } from '../support/journey/app';
import { FAKE_MIC_ARGS, type FilmLines, login, micFixture, prptFilm } from './recording-helpers';

// The voice warm-up on the dub page in real Chromium, the fake microphone playing a learner's take:
// recorded through the takes' capture path (AudioWorklet into the encoder worker, docs/recording.md),
// saved by the server as the learner's baseline, and no deprecated ScriptProcessorNode on the way.
// The film is German: the page also says, before any take, that its words are not checked.
let journey: JourneyApp;
let browser: Browser;
let film: FilmLines;
let token: string;

beforeAll(async () => {
  journey = await startJourneyApp();
  token = await login(journey.server.url);
  film = await prptFilm(journey.server.url, token, 'The Rag on the Fridge');
  browser = await launchChromium(FAKE_MIC_ARGS(micFixture().path));
});

afterAll(async () => {
  await browser?.close();
  await journey?.close();
});

describe('the voice warm-up in Chromium', () => {
  test('records the neutral line through the AudioWorklet path and is saved, with no ScriptProcessorNode', async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'user-token', value: token, url: journey.origin }]);
    const page = await context.newPage();
    const log: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => errors.push(e.message));
    // The capture nodes the page creates, counted by their constructors.
    await context.addInitScript(`(() => {
      if (typeof window === 'undefined' || !window.AudioWorkletNode) return;
      const nodes = { worklet: 0, scriptProcessor: 0 };
      window.__nodes = nodes;
      const W = window.AudioWorkletNode;
      window.AudioWorkletNode = class extends W { constructor(...a) { super(...a); nodes.worklet++; } };
      const create = AudioContext.prototype.createScriptProcessor;
      AudioContext.prototype.createScriptProcessor = function (...a) { nodes.scriptProcessor++; return create.apply(this, a); };
    })()`);
    await page.goto(`${journey.origin}/prpt/dub/${film.id}`);
    // Before any take, the page says this German film's words are not checked (docs/words.md).
    await expect(page.getByTestId('dub-words-not-checked').textContent()).resolves.toBe(
      '德语台词暂不检查词句，只评语气',
    );
    await page.getByTestId('voice-warmup-record').click();
    await page.getByTestId('voice-warmup-stop').waitFor();
    // The line takes a few seconds; the recording stops by itself after six.
    const result = page.getByTestId('voice-warmup-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getAttribute('data-step'), log.join('\n')).toBe('done');
    const nodes = (await page.evaluate('window.__nodes')) as { worklet: number; scriptProcessor: number };
    expect(nodes.worklet).toBeGreaterThanOrEqual(1);
    expect(nodes.scriptProcessor).toBe(0);
    expect(log.filter((l) => /ScriptProcessor/i.test(l))).toEqual([]);
    expect(errors).toEqual([]);
    // The server keeps it: the step is not offered again.
    const state = (await (
      await fetch(`${journey.server.url}/ai/voice_warmup`, { headers: { token } })
    ).json()) as { data: { status: string } };
    expect(state.data.status).toBe('recorded');
    await context.close();
  });
});
