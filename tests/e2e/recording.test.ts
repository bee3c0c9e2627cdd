import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_WINDOW_MARGIN_SECONDS, TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { mmssToSeconds } from '../../src/audio/dsp/time';
import { decodeWav } from '../../src/audio/dsp/wav';
import { launchChromium } from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';
import {
  buildClient,
  type CapturedUpload,
  FAKE_MIC_ARGS,
  type FilmLines,
  locate,
  login,
  micAt16k,
  micFixture,
  parseMultipart,
  prptFilm,
  serveClient,
} from './recording-helpers';

// The whole recording pipeline in real Chromium, with a wav file as the microphone: AudioWorklet →
// encoder worker → one wav per subtitle window → upload → AI service score → prpt store.
const FILM = 'The Rag on the Fridge';
const MARGIN = DEFAULT_WINDOW_MARGIN_SECONDS;
const TOLERANCE = 0.02 * TARGET_SAMPLE_RATE; // ±20 ms

let api: TestServer;
let clientBuild: Awaited<ReturnType<typeof buildClient>>;
let client: Awaited<ReturnType<typeof serveClient>>;
let browser: Browser;
let mic16k: Float32Array;
let film: FilmLines;
let token: string;
const errors: string[] = [];

beforeAll(async () => {
  const mic = micFixture();
  if (mic.built) console.warn('[recording] tests/fixtures/mic missing: built the microphone file from EmoDB');
  mic16k = micAt16k(mic.path);
  [api, clientBuild] = await Promise.all([
    startTestServer({ seedDemo: true, importDemo: true }),
    buildClient(),
  ]);
  client = await serveClient(clientBuild.outDir, api.url);
  token = await login(api.url);
  film = await prptFilm(api.url, token, FILM);
  browser = await launchChromium(FAKE_MIC_ARGS(mic.path));
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (client ? client.server.httpServer.close(() => r()) : r()));
  await api?.close();
  await clientBuild?.remove();
});

async function openDub(
  query = '',
): Promise<{ context: BrowserContext; page: Page; uploads: CapturedUpload[] }> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'user-token', value: token, url: client.origin }]);
  const page = await context.newPage();
  const uploads: CapturedUpload[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/ai/speech_emotion')) {
      uploads.push(parseMultipart(r.postDataBuffer() as Buffer, r.headers()['content-type']));
    }
  });
  await page.goto(`${client.origin}/prpt/dub/${film.id}${query}`);
  await page.getByTestId('dub-scene-take').waitFor();
  // Page-side code is passed as strings: this file is type-checked for Node, not the DOM.
  await page.waitForFunction("document.querySelector('[data-testid=dub-video]')?.readyState >= 1");
  return { context, page, uploads };
}

const scores = (page: Page) =>
  page.evaluate<Record<string, Record<string, string>>>(
    "JSON.parse(sessionStorage.getItem('prpt.subTitlesScores') ?? '{}')",
  );

const hasSecondAttempt = (page: Page, id: string) =>
  page.waitForFunction(
    `!!JSON.parse(sessionStorage.getItem('prpt.subTitlesScores') ?? '{}')[${JSON.stringify(id)}]?.secondUserAudioJson`,
    undefined,
    { timeout: 60_000 },
  );

/** Uploads waiting in the dub queue's IndexedDB store. */
const pending = (page: Page) =>
  page.evaluate<number>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('dub-uploads');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction('pending').objectStore('pending').count();
      req.onsuccess = () => resolve(req.result);
    };
  })`);

function windowSamples(line: FilmLines['lines'][number]): number {
  return (mmssToSeconds(line.endTime) - mmssToSeconds(line.startTime) + 2 * MARGIN) * TARGET_SAMPLE_RATE;
}

/** Distance between two offsets in the looping mic file. */
function loopDistance(a: number, b: number): number {
  const L = mic16k.length;
  const d = (((a - b) % L) + L) % L;
  return Math.min(d, L - d);
}

describe('recording pipeline in Chromium with a fake microphone', () => {
  let session: Awaited<ReturnType<typeof openDub>>;

  test('a scene take uploads one wav per line, as long as its window, cut from the microphone without gaps or repeats', async () => {
    session = await openDub('?debug=pipeline');
    const { page, uploads } = session;
    await page.getByTestId('dub-scene-take').click();
    for (const line of film.lines) {
      await page.locator(`[data-testid="line-${line.id}"][data-stage="scored"]`).waitFor({ timeout: 90_000 });
    }
    expect(uploads).toHaveLength(film.lines.length);
    const byLine = new Map(uploads.map((u) => [u.fields.subtitlesId, u]));
    const matches = film.lines.map((line) => {
      const up = byLine.get(line.id);
      expect(up, `upload for line ${line.id}`).toBeDefined();
      const u = up as CapturedUpload;
      expect(u.fileName).toBe(`${line.id}.wav`);
      expect(u.fields).toMatchObject({ filmId: film.id, attempt: '1' });
      const wav = decodeWav(u.wav);
      expect(wav.sampleRate).toBe(16000);
      expect(Math.abs(wav.channels[0].length - windowSamples(line))).toBeLessThanOrEqual(TOLERANCE);
      return { line, start: mmssToSeconds(line.startTime) - MARGIN, match: locate(wav.channels[0], mic16k) };
    });
    for (const { line, match } of matches) {
      expect(match.ncc, `line ${line.id} correlation`).toBeGreaterThan(0.9);
      for (const q of match.quarters) expect(q, `line ${line.id} quarter correlation`).toBeGreaterThan(0.8);
    }
    // No gaps, no repeats between lines: each upload sits in the mic file exactly as far after the first
    // as its window is after the first window.
    const [first] = matches;
    for (const m of matches.slice(1)) {
      const expected = first.match.offset + (m.start - first.start) * TARGET_SAMPLE_RATE;
      expect(loopDistance(m.match.offset, expected), `line ${m.line.id} position`).toBeLessThanOrEqual(
        TOLERANCE,
      );
    }
    const stored = await scores(page);
    for (const line of film.lines) {
      expect(stored[line.id].firstUserAudioJson).toContain('"overall"');
      expect(stored[line.id].firstSource).toMatch(/^blob:/);
      expect(stored[line.id].secondUserAudioJson).toBeUndefined();
    }
    expect(await page.getByTestId('overlay-dropped').textContent()).toBe('0 / 0');
  });

  test('a line retake fills the second-attempt fields', async () => {
    const { page, uploads } = session;
    const line = film.lines[1];
    const before = uploads.length;
    await page.getByTestId(`record-${line.id}`).click();
    await hasSecondAttempt(page, line.id);
    expect(uploads.slice(before).map((u) => [u.fields.subtitlesId, u.fields.attempt])).toEqual([
      [line.id, '2'],
    ]);
    const wav = decodeWav(uploads[before].wav).channels[0];
    expect(Math.abs(wav.length - windowSamples(line))).toBeLessThanOrEqual(TOLERANCE);
    expect(locate(wav, mic16k).ncc).toBeGreaterThan(0.9);
    const entry = (await scores(page))[line.id];
    expect(entry.secondSource).toMatch(/^blob:/);
    expect(entry.secondSource).not.toBe(entry.firstSource);
    expect(entry.firstUserAudioJson).not.toBe(entry.secondUserAudioJson);
  });

  test('a take made while the AI service is unreachable is kept across a reload and sent when it is back', async () => {
    const { page, uploads } = session;
    const line = film.lines[2];
    // The AI service is gone: connections to it are refused.
    await page.route('**/ai/speech_emotion**', (route) => route.abort('connectionrefused'));
    const before = uploads.length;
    await page.getByTestId(`record-${line.id}`).click();
    await page.locator(`[data-testid="line-${line.id}"][data-stage="queued"]`).waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      "document.querySelector('[data-testid=dub-phase]')?.getAttribute('data-phase') === 'idle'",
    );
    await expect.poll(() => uploads.length).toBeGreaterThan(before); // it was tried, and refused
    expect(await pending(page)).toBe(1);
    await page.reload();
    await page.getByTestId('dub-scene-take').waitFor();
    expect(await pending(page)).toBe(1); // still refused after the reload, still kept
    const triedIds = new Set(uploads.slice(before).map((u) => u.fields.takeId));
    expect(triedIds.size).toBe(1);

    await page.unroute('**/ai/speech_emotion**');
    await page.reload(); // the next page load sends what is waiting
    await hasSecondAttempt(page, line.id);
    expect(await pending(page)).toBe(0);
    const sent = uploads.at(-1) as CapturedUpload;
    expect(triedIds.has(sent.fields.takeId)).toBe(true); // the same take, not a new recording
    expect(sent.fields).toMatchObject({ subtitlesId: line.id, attempt: '2' });
    await session.context.close();
  });

  test('the audio-recorder-polyfill fallback (?recorder=polyfill) feeds the same worker path', async () => {
    const { context, page, uploads } = await openDub('?recorder=polyfill&debug=pipeline');
    const line = film.lines[0];
    await page.getByTestId(`record-${line.id}`).click();
    await page.locator(`[data-testid="line-${line.id}"][data-stage="scored"]`).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('pipeline-overlay').textContent()).toContain('polyfill');
    expect(uploads).toHaveLength(1);
    const wav = decodeWav(uploads[0].wav).channels[0];
    expect(Math.abs(wav.length - windowSamples(line))).toBeLessThanOrEqual(TOLERANCE);
    const match = locate(wav, mic16k);
    expect(match.ncc).toBeGreaterThan(0.9);
    await context.close();
  });

  test('no script errors on the page', () => {
    expect(errors).toEqual([]);
  });
});
