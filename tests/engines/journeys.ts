import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_WINDOW_MARGIN_SECONDS, TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { decodeWav } from '../../src/audio/dsp/wav';
import { micFixture } from '../e2e/recording-helpers';
import { ENGINE_FEATURES } from '../support/engine-features';
import type { EngineName, EnginePage } from '../support/engines/engine';
import { containing, css, named } from '../support/engines/find';
import { type EngineRun, record, shotPath, startEngine, waitFor } from '../support/engines/harness';
import { type JourneyApp, startJourneyApp } from '../support/journey/app';
import { FILM } from '../support/journey/flow';
import { DEMO } from '../support/journey/login';
import { KIOSK, PHONE } from '../support/journey/sizes';
import { zhText } from '../support/journey/text';

/**
 * The learner journeys every engine runs (tests/engines/<engine>.test.ts call this once each), written
 * against the driver interface of tests/support/engines/engine.ts, against the production build served
 * by the real server under its production Content-Security-Policy (startJourneyApp).
 *
 * - part one (prpo): password login → movies → cinema (the clip plays) → answers → result → report;
 * - part two (prpt): password login → the same film to its result → the dub page, a scene take with a
 *   wav as the microphone (PulseAudio, tests/support/engines/pulse.ts) → a score for every line, one
 *   upload per line that decodes and fits its subtitle window → suggestion → report with every line.
 *
 * The Chromium journeys (tests/e2e/journey-*.test.ts) keep QR login, retakes, the pitch guide, Watch
 * my dub, idle timeout and expiry; these engine journeys are the core of both parts.
 */
/** `prpt-no-mic`: part two in an engine without getUserMedia, up to the dub page saying so. */
export type Part = 'prpo' | 'prpt' | 'prpt-no-mic';

/**
 * What each engine offers of what the product leans on (tests/support/engine-features.ts), asserted so
 * a change of engine shows here first. WPE 2.38 has no Wasm SIMD, so the dot products run on plain JS
 * there (src/audio/dsp/dot.ts), and no getUserMedia, so the dub page says it cannot record.
 */
const EXPECTED_FEATURES: Record<EngineName, Record<string, boolean>> = {
  firefox: { audioWorklet: true, requestVideoFrameCallback: true, wasmSimd: true, getUserMedia: true },
  webkit: { audioWorklet: true, requestVideoFrameCallback: true, wasmSimd: true, getUserMedia: true },
  wpe: { audioWorklet: true, requestVideoFrameCallback: true, wasmSimd: false, getUserMedia: false },
};

/** The journeys of `parts` in engine `name`, in one file: one client build, one engine. */
export function defineEngineJourneys(name: EngineName, parts: readonly Part[]): void {
  let app: JourneyApp;
  let run: EngineRun;

  beforeAll(async () => {
    app = await startJourneyApp();
    run = await startEngine(name);
  }, 300_000);

  afterAll(async () => {
    await run?.stop();
    await app?.close();
  });

  /** One journey in a fresh page; its time is recorded, and the page must have reported no error. */
  const journey = (title: string, id: Part, body: (page: EnginePage) => Promise<void>) => {
    if (!parts.includes(id)) return;
    test(title, { timeout: 600_000 }, async () => {
      const page = await run.engine.newPage(KIOSK);
      const started = performance.now();
      try {
        await body(page);
        expect(await page.errors()).toEqual([]);
      } finally {
        record({ engine: name, what: `journey ${id}`, ms: performance.now() - started });
        await page.close();
      }
    });
  };

  const shot = (page: EnginePage, journeyId: string, screen: string) =>
    page.screenshot(shotPath(name, journeyId, screen));

  describe(`${name}: learner journeys`, () => {
    journey(
      'part one: password login → movies → cinema (plays) → answers → result → report',
      'prpo',
      async (page) => {
        await loginToMovies(page, app, 'prpo');
        const features = await page.evaluate<Record<string, unknown>>(ENGINE_FEATURES);
        console.log(`[engines] ${name} features ${JSON.stringify(features)}`);
        expect(features).toMatchObject(EXPECTED_FEATURES[name]);
        await watchAnswerAndSeeResult(page, 'prpo');
        await shot(page, 'prpo', 'result');
        await page.click(named('a', zhText('result.toReport')));
        await onPage(page, 'prpo/report');
        await waitFor(page, css('[data-testid="report-h5-link"]'));
        await waitFor(
          page,
          `document.querySelector('img[alt=${JSON.stringify(zhText('report.qrAlt'))}]')?.complete`,
        );
        await settle(page);
        await shot(page, 'prpo', 'report-kiosk');
        await page.setSize(PHONE);
        await settle(page);
        await shot(page, 'prpo', 'report-phone');
      },
    );

    journey(
      'part two without a microphone: password login → result → the dub page says this browser cannot record',
      'prpt-no-mic',
      async (page) => {
        await resultToDubPage(page, app);
        await page.click(css('[data-testid="dub-scene-take"]'));
        await waitFor(page, containing('[role=alert]', zhText('dub.problem.mic-unsupported')), 30_000);
        expect(
          await page.evaluate<string>(`document.querySelector('[data-testid="dub-phase"]')?.dataset.phase`),
        ).toBe('idle');
        await settle(page);
        await shot(page, 'prpt', 'dub-no-mic');
      },
    );

    journey(
      'part two: password login → result → dub a scene from a wav microphone → scores → suggestion → report',
      'prpt',
      async (page) => {
        await resultToDubPage(page, app);
        await waitFor(page, "document.querySelector('[data-testid=dub-video]')?.readyState >= 1", 60_000);
        const lineIds = await page.evaluate<string[]>(
          `[...document.querySelectorAll('li[data-testid^="line-"]')].map((e) => e.dataset.testid.slice(5))`,
        );
        expect(lineIds.length).toBeGreaterThan(1);
        await shot(page, 'prpt', 'dub');

        const takesBefore = await storedTakes(app);
        const stopMic = await run.pulse.loopMicrophone(micFixture().path);
        try {
          await page.click(css('[data-testid="dub-scene-take"]'));
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="recording"]'), 60_000);
          for (const id of lineIds) {
            await waitFor(page, css(`[data-testid="line-${id}"][data-stage="scored"]`), 180_000).catch(
              async (err) => {
                throw new Error(
                  `${err.message}\nline stages: ${await lineStages(page)}\nconsole:\n  ${(await page.consoleLines()).join('\n  ')}`,
                );
              },
            );
          }
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="idle"]'), 60_000);
        } finally {
          await stopMic();
        }

        // Every line scored, and one upload per line that decodes and spans its subtitle window.
        await waitFor(page, `${STORED_SCORES}.length === ${lineIds.length}`, 60_000);
        const scored = await page.evaluate<{ overall: number; speech: boolean }[]>(STORED_SCORES);
        for (const s of scored) expect(s.overall).toEqual(expect.any(Number));
        const windows = await app.server.app.db
          .selectFrom('subtitles')
          .select(['id', 'start_ms', 'end_ms'])
          .where('id', 'in', lineIds)
          .execute();
        const uploads = (await storedTakes(app)).slice(takesBefore.length);
        expect(uploads.map((u) => u.subtitleId).sort()).toEqual([...lineIds].sort());
        for (const u of uploads) {
          const line = windows.find((l) => l.id === u.subtitleId);
          expect(line, `line ${u.subtitleId} is a line of the film`).toBeDefined();
          expectWindow(u.samples, Number(line?.start_ms), Number(line?.end_ms), u.subtitleId);
        }
        await shot(page, 'prpt', 'dub-scored');

        await page.click(named('a', zhText('dub.next')));
        await onPage(page, 'prpt/sound-suggest');
        await waitFor(page, css('[data-screen="sound-suggest"] ol > li p'), 60_000);
        await page.click(named('a', zhText('suggest.toReport')));
        await onPage(page, 'prpt/report');
        await waitFor(page, css('[aria-labelledby="report-dubbing"] tbody tr'), 60_000);
        // A line counts as scored where its take had speech (src/audio/scoring/aggregate.ts): the
        // looped wav can leave a window between two sentences silent, and the report says so.
        const withSpeech = scored.filter((s) => s.speech).length;
        expect(withSpeech, 'lines whose take had speech').toBeGreaterThan(0);
        await waitFor(
          page,
          `document.querySelector('[data-testid="report-scored-lines"]')?.textContent === ${JSON.stringify(
            zhText('report.scoredLines', { done: withSpeech, total: lineIds.length }),
          )}`,
          60_000,
        ).catch(async (err) => {
          throw new Error(
            `${err.message}\nshown: ${await page.evaluate<string>(`document.querySelector('[data-testid="report-scored-lines"]')?.textContent`)}`,
          );
        });
        expect(
          await page.evaluate<number>(
            `document.querySelectorAll('[aria-labelledby="report-dubbing"] tbody tr:has(th[scope=row])').length`,
          ),
        ).toBe(lineIds.length);
        await settle(page);
        await shot(page, 'prpt', 'report-kiosk');
        await page.setSize(PHONE);
        await settle(page);
        await shot(page, 'prpt', 'report-phone');
      },
    );
  });
}

/** The scores the dub page stored for this session's lines (sub-titles-scores.ts), first attempts. */
const STORED_SCORES = `(() => { const o = []; for (let i = 0; i < sessionStorage.length; i++) { const k = sessionStorage.key(i); if (k.startsWith('prpt.subTitlesScores/')) { const v = JSON.parse(sessionStorage.getItem(k)); if (v.firstUserAudioJson) { const j = JSON.parse(v.firstUserAudioJson); o.push({ overall: j.overall, speech: j.quality.speechDetected }); } } } return o; })()`;

async function lineStages(page: EnginePage): Promise<string> {
  return page.evaluate<string>(
    `[...document.querySelectorAll('li[data-testid^="line-"]')].map((e) => e.dataset.testid + ': ' + e.dataset.stage + ' | ' + e.textContent).join('\\n  ')`,
  );
}

/** Waits until the route's own page module has rendered (LazyPage sets `data-page`). */
function onPage(page: EnginePage, name: string, timeout = 60_000): Promise<void> {
  return waitFor(page, css(`[data-page="${name}"]`), timeout);
}

/** Two animation frames and every image decoded: the layout a learner sees, for a screenshot. */
function settle(page: EnginePage): Promise<void> {
  return page.evaluate(
    `Promise.all([...document.images].map((i) => i.decode().catch(() => undefined))).then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))`,
  );
}

async function loginToMovies(page: EnginePage, app: JourneyApp, part: 'prpo' | 'prpt'): Promise<void> {
  await page.goto(`${app.origin}/${part}/movies`);
  await onPage(page, `${part}/login`);
  expect(new URL(await page.url()).pathname).toBe(`/${part}/login`);
  await page.type(css('input[name="account"]'), DEMO.account);
  await page.type(css('input[name="password"]'), DEMO.password);
  await page.click(named('button', zhText('login.submit')));
  await onPage(page, `${part}/movies`);
  await waitFor(page, containing('a', FILM.title));
  await page.click(containing('a', FILM.title));
}

/** Part two from password login through the result to the dub page, ready for a scene take. */
async function resultToDubPage(page: EnginePage, app: JourneyApp): Promise<void> {
  await loginToMovies(page, app, 'prpt');
  const { filmId } = await watchAnswerAndSeeResult(page, 'prpt');
  await page.click(named('a', zhText('result.toDub')));
  await onPage(page, 'prpt/dub');
  expect(new URL(await page.url()).pathname).toBe(`/prpt/dub/${filmId}`);
  await waitFor(page, css('[data-testid="dub-scene-take"]'));
}

/** Cinema (the clip plays and advances), every question answered, the result with one item per question. */
async function watchAnswerAndSeeResult(
  page: EnginePage,
  part: 'prpo' | 'prpt',
): Promise<{ filmId: string; questions: number }> {
  await onPage(page, `${part}/cinema`);
  await waitFor(page, containing('h1', FILM.title));
  const filmId = new URL(await page.url()).pathname.split('/').at(-1) as string;
  await waitFor(page, "document.querySelector('video')?.readyState >= 2", 60_000);
  await page.click(named('button', zhText('cinema.play')));
  const from = await page.evaluate<number>("document.querySelector('video').currentTime");
  await waitFor(
    page,
    `(() => { const v = document.querySelector('video'); return !v.paused && v.currentTime > ${from} + 1; })()`,
    60_000,
  );
  await page.click(named('button', zhText('cinema.pause')));
  await page.click(named('a', zhText('cinema.toQuestions')));

  await onPage(page, `${part}/answer`);
  await waitFor(page, css('form fieldset'));
  const questions = await page.evaluate<number>("document.querySelectorAll('form fieldset').length");
  expect(questions).toBeGreaterThan(0);
  for (let i = 0; i < questions; i++) {
    const q = `document.querySelectorAll('form fieldset')[${i}]`;
    const kind = await page.evaluate<string>(
      `${q}.querySelector('textarea') ? 'text' : ${q}.querySelector('input[type=radio]') ? 'radio' : 'checkbox'`,
    );
    if (kind === 'text')
      await page.type(`${q}.querySelector('textarea')`, '她的声音越来越高、越来越紧，说明她在压着火。');
    else if (kind === 'radio') await page.click(`${q}.querySelector('input[type=radio]')`);
    else {
      await page.click(`${q}.querySelectorAll('input[type=checkbox]')[0]`);
      if (await page.evaluate<boolean>(`${q}.querySelectorAll('input[type=checkbox]').length > 1`))
        await page.click(`${q}.querySelectorAll('input[type=checkbox]')[1]`);
    }
  }
  await waitFor(
    page,
    `document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '${questions}'`,
  );
  await page.click(named('button', zhText('answer.submit')));

  await onPage(page, `${part}/result`);
  await waitFor(page, containing('*', zhText('result.score')));
  expect(
    await page.evaluate<number>(`document.querySelectorAll('[data-screen="result"] li h3').length`),
  ).toBe(questions);
  return { filmId, questions };
}

interface StoredTake {
  subtitleId: string;
  samples: number;
}

/** The takes the server stored, oldest first, each decoded from its wav (the server's copy of an upload). */
async function storedTakes(app: JourneyApp): Promise<StoredTake[]> {
  const rows = await app.server.app.db
    .selectFrom('takes')
    .select(['subtitle_id', 'audio_key', 'created_at'])
    .orderBy('created_at')
    .execute();
  return Promise.all(
    rows.map(async (r) => ({
      subtitleId: String(r.subtitle_id),
      samples: decodeWav(await app.server.app.storage.get(r.audio_key)).channels[0].length,
    })),
  );
}

/**
 * A line's upload spans its window: the line and its margins, less at most the trailing margin when
 * the learner fell silent early (src/audio/dsp/windows.ts); ±20 ms.
 */
function expectWindow(samples: number, startMs: number, endMs: number, id: string): void {
  const margin = DEFAULT_WINDOW_MARGIN_SECONDS;
  const full = ((endMs - startMs) / 1000 + 2 * margin) * TARGET_SAMPLE_RATE;
  const tolerance = 0.02 * TARGET_SAMPLE_RATE;
  expect(samples, `line ${id} upload length`).toBeGreaterThanOrEqual(
    full - margin * TARGET_SAMPLE_RATE - tolerance,
  );
  expect(samples, `line ${id} upload length`).toBeLessThanOrEqual(full + tolerance);
}
