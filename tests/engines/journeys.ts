import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UPLOADS_DB, UPLOADS_STORE } from '../../src/app/stores/uploads/pending-count';
import { DEFAULT_WINDOW_MARGIN_SECONDS, TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { decodeWav, encodeWav16, toMono } from '../../src/audio/dsp/wav';
import { localQrProvider } from '../../server/auth/qr/provider';
import { statementsZh } from '../../src/i18n/statements.zh';
import { locate, micFixture, writeWhole } from '../e2e/recording-helpers';
import { ENGINE_FEATURES } from '../support/engine-features';
import type { EngineName, EnginePage } from '../support/engines/engine';
import { containing, css, named } from '../support/engines/find';
import { type EngineRun, record, shotPath, startEngine, waitFor } from '../support/engines/harness';
import { HEARD_RATE, type HeardMicrophone } from '../support/engines/pulse';
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
 *   upload per line that decodes and fits its subtitle window → a retake of the second line with its
 *   lead-in (the clip's sound on from the line before, off before the window) and its second score →
 *   the pitch guide drawn (actor and learner pixels) → Watch my dub plays (the clip advances, the takes
 *   are scheduled in film order, no actor line) → suggestion → report with every line and this run in
 *   its history → the H5 share page in a page of its own at phone size, no login, its video playing
 *   from a tap → log out to the standby, a guarded page asks for a login again;
 * - sessions: QR login (the kiosk's code confirmed from a phone-sized page of its own) → movies →
 *   cinema → the session expires on the server → the next call lands on the login page saying so,
 *   local data wiped → password login returns to the page the learner was going to;
 * - expiry-take: a line take while the session expires on the server is kept in the browser's
 *   IndexedDB, and sent after the learner logs in again, to the run it was recorded in.
 *
 * The Chromium journeys (tests/e2e/) keep what needs the DevTools protocol or a long wait: the
 * accessibility scans, the idle timeout, an upload held on its way while the session expires
 * (tests/e2e/expired-take.test.ts), Watch my dub's timing measured on the video clock, the phone
 * layout measurements and the second-session journey.
 */
/**
 * `prpt-no-mic`: part two in an engine without getUserMedia, up to the dub page saying so. `sessions`:
 * QR login, and a session that expires mid-journey. `expiry-take`: a take kept across an expiry.
 */
export type Part = 'prpo' | 'prpt' | 'prpt-no-mic' | 'sessions' | 'expiry-take';

/** How many takes the upload queue holds in IndexedDB (src/app/stores/uploads/pending-count.ts), -1 unread. */
const PENDING_UPLOADS = `new Promise((resolve) => { const r = indexedDB.open(${JSON.stringify(UPLOADS_DB)}); r.onsuccess = () => { try { const c = r.result.transaction(${JSON.stringify(UPLOADS_STORE)}, 'readonly').objectStore(${JSON.stringify(UPLOADS_STORE)}).count(); c.onsuccess = () => { r.result.close(); resolve(c.result); }; c.onerror = () => resolve(-1); } catch { resolve(-1); } }; r.onerror = () => resolve(-1); })`;

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
        await page.evaluate(WATCH_FRAMES);
        const stopMic = await run.pulse.loopMicrophone(micFixture().path);
        let heard: HeardMicrophone | undefined;
        try {
          await page.click(css('[data-testid="dub-scene-take"]'));
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="recording"]'), 60_000);
          // Each line scored, or failed: a line whose window was still open when the take stopped
          // fails as incomplete, and the alignment below says where the others were cut.
          for (const id of lineIds) {
            await waitFor(
              page,
              css(`[data-testid="line-${id}"]:is([data-stage="scored"],[data-stage="failed"])`),
              180_000,
            ).catch(async (err) => {
              throw new Error(await takeState(page, err));
            });
          }
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="idle"]'), 60_000);
        } finally {
          heard = await stopMic();
        }
        const alignment = measureAlignment(
          name,
          (await storedTakes(app)).slice(takesBefore.length),
          await lineWindows(app, lineIds),
          await page.evaluate<ShownFrame[]>('window.__framesShown'),
          heard,
        );
        for (const id of lineIds)
          await waitFor(page, css(`[data-testid="line-${id}"][data-stage="scored"]`), 1000).catch(
            async (err) => {
              throw new Error(`${err.message}\nline stages: ${await lineStages(page)}`);
            },
          );

        // Every line scored, and one upload per line that decodes and spans its subtitle window.
        await waitFor(page, `${STORED_SCORES}.length === ${lineIds.length}`, 60_000);
        const scored = await page.evaluate<{ overall: number }[]>(STORED_SCORES);
        for (const s of scored) expect(s.overall).toEqual(expect.any(Number));
        const windows = await app.server.app.db
          .selectFrom('subtitles')
          .select(['id', 'start_ms', 'end_ms'])
          .where('id', 'in', lineIds)
          .execute();
        const uploads = (await storedTakes(app)).slice(takesBefore.length);
        const moved = clipMovedSeconds(await page.consoleLines());
        expect(uploads.map((u) => u.subtitleId).sort()).toEqual([...lineIds].sort());
        for (const u of uploads) {
          const line = windows.find((l) => l.id === u.subtitleId);
          expect(line, `line ${u.subtitleId} is a line of the film`).toBeDefined();
          expectWindow(u.wav.length, Number(line?.start_ms), Number(line?.end_ms), u.subtitleId, moved);
        }
        expectAligned(
          alignment,
          lineIds.length,
          name === 'webkit' ? WEBKIT_ALIGNMENT_TOLERANCE_SECONDS : ALIGNMENT_TOLERANCE_SECONDS,
        );
        await shot(page, 'prpt', 'dub-scored');

        await retakeWithLeadIn(page, name, app, run, lineIds);
        await shot(page, 'prpt', 'dub-retake');
        await expectPitchGuideDrawn(page, name);
        await watchMyDub(page, app, lineIds);
        await shot(page, 'prpt', 'watch-dub');
        await closeWatchMyDub(page);

        await page.click(named('a', zhText('dub.next')));
        await onPage(page, 'prpt/sound-suggest');
        await waitFor(page, css('[data-screen="sound-suggest"] ol > li p'), 60_000);
        await page.click(named('a', zhText('suggest.toReport')));
        await onPage(page, 'prpt/report');
        await waitFor(page, css('[aria-labelledby="report-dubbing"] tbody tr'), 60_000);
        // A line counts as scored where its take had speech (src/audio/scoring/aggregate.ts): the
        // looped wav can leave a window between two sentences silent, and the report says so.
        // The report counts a line's latest take (the retake, where there is one).
        const latest = await page.evaluate<{ latestSpeech: boolean }[]>(STORED_SCORES);
        const withSpeech = latest.filter((s) => s.latestSpeech).length;
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
        await expectThisRunInHistory(page);
        await settle(page);
        await shot(page, 'prpt', 'report-kiosk');
        await page.setSize(PHONE);
        await settle(page);
        await shot(page, 'prpt', 'report-phone');
        await page.setSize(KIOSK);

        // The H5 share page on a phone: a page of its own (no cookie, no login), its dubbed video plays.
        const h5 = await page.evaluate<string>(
          `document.querySelector('[data-testid="report-h5-link"]').href`,
        );
        await app.server.app.renders.idle();
        const phone = await run.engine.newPage(PHONE);
        try {
          await sharePagePlays(phone, h5);
          await shot(phone, 'prpt', 'h5-phone');
          expect(await phone.errors()).toEqual([]);
        } finally {
          await phone.close();
        }

        await logOutToStandby(page, app, 'prpt', zhText('ui.logout'));
      },
    );

    journey(
      'sessions: QR login confirmed on a phone → cinema → the session expires → login again returns to the page',
      'sessions',
      async (page) => {
        await qrLogin(page, app, run, shot);
        await page.click(containing('a', FILM.title));
        await onPage(page, 'prpt/cinema');
        await waitFor(page, containing('h1', FILM.title));
        const filmId = new URL(await page.url()).pathname.split('/').at(-1) as string;
        await page.evaluate("sessionStorage.setItem('journey.marker', 'left by the expired session')");

        // The session runs out on the server: the next call answers 1002 (docs/api.md), the app says
        // so, forgets the learner and asks for a login that returns to the page they were going to.
        await app.server.app.db
          .updateTable('sessions')
          .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
          .execute();
        await page.click(named('a', zhText('cinema.toQuestions')));
        await onPage(page, 'prpt/login');
        const answerPath = `/prpt/answer/${filmId}`;
        const u = new URL(await page.url());
        expect(u.pathname + u.search).toBe(`/prpt/login?redirect=${encodeURIComponent(answerPath)}`);
        await waitFor(page, containing('[role=alert]', zhText('toast.sessionExpired')));
        expect(await page.evaluate<string[]>('Object.keys(localStorage)')).toEqual(['app.lang']);
        expect(await page.evaluate<string | null>("sessionStorage.getItem('journey.marker')")).toBeNull();
        await settle(page);
        await shot(page, 'sessions', 'login-expired');

        await passwordLogin(page);
        await onPage(page, 'prpt/answer');
        expect(new URL(await page.url()).pathname).toBe(answerPath);
        await waitFor(page, css('form fieldset'));
      },
    );

    journey(
      'expiry-take: a line take while the session expires is kept in IndexedDB and sent, to its run, after login again',
      'expiry-take',
      async (page) => {
        await loginToMovies(page, app, 'prpt');
        await onPage(page, 'prpt/cinema');
        const filmId = new URL(await page.url()).pathname.split('/').at(-1) as string;
        await page.goto(`${app.origin}/prpt/dub/${filmId}`);
        await onPage(page, 'prpt/dub');
        await waitFor(page, css('[data-testid="dub-scene-take"]'));
        await waitFor(page, "document.querySelector('[data-testid=dub-video]')?.readyState >= 1", 60_000);
        // Two lines this account can still record: the part-two journey before used both takes of a
        // line, and a line takes two (the spec's first and second attempt; no record button after).
        await waitFor(
          page,
          `((rows) => rows.length > 0 && rows.every((e) => e.querySelector('[data-testid^="record-"], [data-testid^="attempts-used-"]')))([...document.querySelectorAll('li[data-testid^="line-"]')])`,
        );
        const [first, during] = await page.evaluate<string[]>(
          `[...document.querySelectorAll('li[data-testid^="line-"]')].map((e) => e.dataset.testid.slice(5)).filter((id) => document.querySelector('[data-testid="record-' + id + '"]'))`,
        );
        expect(during, 'two lines left to record').toBeTruthy();
        await settle(page);
        await shot(page, 'expiry-take', 'dub');
        const stopMic = await run.pulse.loopMicrophone(micFixture().path);
        let before = 0;
        let firstRun: string | null | undefined;
        try {
          // A first line, recorded and scored as usual: its take names the run.
          await pressOnScreen(page, css(`[data-testid="record-${first}"]:enabled`));
          await waitFor(page, css(`[data-testid="line-${first}"][data-stage="scored"]`), 120_000).catch(
            async (err) => {
              throw new Error(await takeState(page, err));
            },
          );
          firstRun = (await takesOfLine(app, first)).at(-1)?.run_id;
          expect(firstRun, 'the first take joined a run').toBeTruthy();
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="idle"]'), 60_000);

          // The session ends on the server while the next line is recorded: its upload answers
          // 1002, the app says so and asks for a login, and the take waits on the device.
          before = (await takesOfLine(app, during)).length;
          await pressOnScreen(page, css(`[data-testid="record-${during}"]:enabled`));
          await waitFor(page, css('[data-testid="dub-phase"][data-phase="recording"]'), 60_000);
          await app.server.app.db.deleteFrom('sessions').execute();
          await onPage(page, 'prpt/login', 120_000);
          await waitFor(page, containing('[role=alert]', zhText('toast.sessionExpired')));
        } finally {
          await stopMic();
        }
        expect(await takesOfLine(app, during), 'nothing stored while logged out').toHaveLength(before);
        await pendingUploads(page, 1);
        await settle(page);
        await shot(page, 'expiry-take', 'login-take-kept');

        // Logging in again returns to the dub page and sends the kept take, once, to the same run.
        await passwordLogin(page);
        await onPage(page, 'prpt/dub');
        await waitFor(page, css(`[data-testid="line-${during}"][data-stage="scored"]`), 120_000);
        const kept = (await takesOfLine(app, during)).slice(before);
        expect(kept, 'the kept take was sent once').toHaveLength(1);
        expect(kept[0].run_id, 'the kept take joined the run it was recorded in').toBe(firstRun);
        await pendingUploads(page, 0);
        await settle(page);
        await shot(page, 'expiry-take', 'dub-after-login');
      },
    );
  });
}

/**
 * Every clip frame the dub page shows from now on, with its display time (requestVideoFrameCallback's
 * expectedDisplayTime) as epoch ms (performance.timeOrigin + t): the clock the microphone's reading is
 * timed on (tests/support/engines/pulse.ts).
 */
const WATCH_FRAMES = `(() => {
  const v = document.querySelector('[data-testid=dub-video]');
  const shown = (window.__framesShown = []);
  const epoch = (t) => performance.timeOrigin + t;
  const next = () => v.requestVideoFrameCallback((_now, meta) => {
    if (shown.length < 20000) shown.push({ media: meta.mediaTime, at: epoch(meta.expectedDisplayTime) });
    next();
  });
  next();
})()`;

/** A clip frame the page showed: its clip time and when it was shown (epoch ms). */
interface ShownFrame {
  media: number;
  at: number;
}

/**
 * How far a line's upload may sit from the sound at the microphone while the clip showed the line, in
 * Firefox: a fifth of a second, less than the window's margin (0.25 s), so the window still holds
 * the whole line. It covers what the test cannot time exactly: the parec reading's latency and jitter
 * (printed), and a frame of display time.
 */
const ALIGNMENT_TOLERANCE_SECONDS = 0.2;
/**
 * WebKitGTK's, wider: its lines sit up to 0.27 s early (a capture latency it does not report, which no
 * reading of the clip against the take's clock can see; docs/browsers.md, open).
 */
const WEBKIT_ALIGNMENT_TOLERANCE_SECONDS = 0.3;
/**
 * An upload found in the microphone's sound with a weaker correlation is not placed (a quiet window).
 * Over 15 WebKitGTK scene takes, an upload placed where its line was correlated at 0.43 or more (the
 * weakest in takes whose capture was rough under load), one placed seconds away at 0.14 or less.
 */
const ALIGNMENT_MIN_NCC = 0.3;
/** The frames that say when the clip was at a line (measureAlignment): those this close to it (s). */
const FRAMES_AROUND_SECONDS = 2;
/** How far from where it belongs an upload is looked for in what the microphone carried (s). */
const ALIGNMENT_SEARCH_SECONDS = 4;

/**
 * Each line's upload against the sound that was at the microphone while the clip showed the line:
 * `heard` is the microphone as a 20 ms PulseAudio client read it, with the epoch time of its first
 * sample (tests/support/engines/pulse.ts); the frames the page showed (epoch ms) say when the clip was
 * at the start of each line's window; the upload is found in `heard` by cross-correlation (`locate`,
 * as the Chromium recording tests place uploads) within ALIGNMENT_SEARCH_SECONDS of there. The offset
 * is positive when the window was cut from sound that came after the line, negative before. Printed as
 * `[engines] <engine> take alignment`.
 */
function measureAlignment(
  engine: EngineName,
  uploads: readonly StoredTake[],
  lines: readonly LineWindow[],
  frames: readonly ShownFrame[],
  heard: HeardMicrophone,
): LineAlignment[] {
  const rate = HEARD_RATE;
  const margin = DEFAULT_WINDOW_MARGIN_SECONDS;
  expect(frames.length, 'clip frames seen during the take').toBeGreaterThan(10);
  const results: LineAlignment[] = [];
  for (const line of lines) {
    const upload = uploads.find((u) => u.subtitleId === line.id);
    if (!upload) continue;
    const from = line.start - margin;
    // When the clip was at the window's start: the median, over the frames shown within
    // FRAMES_AROUND_SECONDS of it, of each frame's display time less its clip time (WebKitGTK under
    // Xvfb shows about two frames a second, some late; one frame alone would say too little).
    const near = frames.filter((f) => Math.abs(f.media - from) <= FRAMES_AROUND_SECONDS);
    expect(near.length, `frames shown near ${from.toFixed(2)} s of the clip`).toBeGreaterThan(0);
    const leads = near.map((f) => f.at - f.media * 1000).sort((a, b) => a - b);
    const shownAt = leads[Math.floor(leads.length / 2)] + from * 1000;
    const expected = Math.round(((shownAt - heard.firstSampleAt) / 1000) * rate);
    const lo = Math.max(0, expected - ALIGNMENT_SEARCH_SECONDS * rate);
    const hi = Math.min(heard.samples.length, expected + upload.wav.length + ALIGNMENT_SEARCH_SECONDS * rate);
    expect(hi - lo, `the microphone was heard around line ${line.id}`).toBeGreaterThan(upload.wav.length);
    const m = locate(upload.wav, heard.samples.subarray(lo, hi), rate, false);
    const offset = (lo + m.offset - expected) / rate;
    results.push({ id: line.id, offset, ncc: m.ncc });
  }
  console.log(
    `[engines] ${engine} take alignment (each line's upload against the sound at the microphone while the clip showed it; + = cut from later sound; microphone read with ${heard.jitterMs.toFixed(0)} ms jitter): ${results
      .map((r) => `${r.id} ${r.offset >= 0 ? '+' : ''}${r.offset.toFixed(3)} s (ncc ${r.ncc.toFixed(2)})`)
      .join(', ')}`,
  );
  return results;
}

/** Where one line's upload sat against its sound (measureAlignment), in seconds of the microphone file. */
interface LineAlignment {
  id: string;
  offset: number;
  ncc: number;
}

/**
 * Most of the take's lines are placed in the microphone's sound (a window of room tone between two
 * sentences is not), each within `tolerance` seconds of where its line was.
 */
function expectAligned(results: readonly LineAlignment[], lines: number, tolerance: number): void {
  const placed = results.filter((r) => r.ncc >= ALIGNMENT_MIN_NCC);
  expect(placed.length, 'lines found in the microphone sound').toBeGreaterThanOrEqual(Math.ceil(lines / 2));
  for (const r of placed)
    expect(Math.abs(r.offset), `line ${r.id}: ${r.offset.toFixed(3)} s from its sound`).toBeLessThanOrEqual(
      tolerance,
    );
}

/** The scores the dub page stored for this session's lines (sub-titles-scores.ts), first attempts. */
const STORED_SCORES = `(() => { const o = []; for (let i = 0; i < sessionStorage.length; i++) { const k = sessionStorage.key(i); if (k.startsWith('prpt.subTitlesScores/')) { const v = JSON.parse(sessionStorage.getItem(k)); if (v.firstUserAudioJson) { const j = JSON.parse(v.firstUserAudioJson); const latest = v.secondUserAudioJson ? JSON.parse(v.secondUserAudioJson) : j; o.push({ overall: j.overall, speech: j.quality.speechDetected !== false, latestSpeech: latest.quality.speechDetected !== false }); } } } return o; })()`;

/** One line's stored entry (sub-titles-scores.ts), or null before its first score is written. */
const storedEntry = (id: string) =>
  `JSON.parse(sessionStorage.getItem(${JSON.stringify(`prpt.subTitlesScores/${id}`)}) ?? 'null')`;

async function lineStages(page: EnginePage): Promise<string> {
  return page.evaluate<string>(
    `[...document.querySelectorAll('li[data-testid^="line-"]')].map((e) => e.dataset.testid + ': ' + e.dataset.stage + ' | ' + e.textContent).join('\\n  ')`,
  );
}

/**
 * A take that did not finish, told: `err`, the dub page's phase, what it says (its alerts), each
 * line's stage, the console.
 */
async function takeState(page: EnginePage, err: Error): Promise<string> {
  const phase = await page.evaluate<string>(
    `document.querySelector('[data-testid=dub-phase]').dataset.phase`,
  );
  const alerts = await page.evaluate<string[]>(
    `[...document.querySelectorAll('[role=alert]')].map((e) => e.textContent)`,
  );
  return `${err.message}\nphase ${phase}, alerts ${JSON.stringify(alerts)}\nline stages: ${await lineStages(page)}\nconsole:\n  ${(await page.consoleLines()).join('\n  ')}`;
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
  await passwordLogin(page);
  await onPage(page, `${part}/movies`);
  await waitFor(page, containing('a', FILM.title));
  await page.click(containing('a', FILM.title));
}

/** Fills the login page's account form and submits it, as a learner does. */
async function passwordLogin(page: EnginePage): Promise<void> {
  await page.type(css('input[name="account"]'), DEMO.account);
  await page.type(css('input[name="password"]'), DEMO.password);
  await page.click(named('button', zhText('login.submit')));
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
  /** The upload's audio, 16 kHz mono. */
  wav: Float32Array;
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
      wav: decodeWav(await app.server.app.storage.get(r.audio_key)).channels[0],
    })),
  );
}

/** The takes the server stored of a line, oldest first, with their runs. */
const takesOfLine = (app: JourneyApp, lineId: string) =>
  app.server.app.db
    .selectFrom('takes')
    .select(['id', 'run_id'])
    .where('subtitle_id', '=', lineId)
    .orderBy('created_at')
    .execute();

/**
 * A press where the element shows, scrolled into view as a learner would: WebKitGTK's driver calls a
 * line's button "not interactable" while the line's row skips its rendering off screen
 * (`content-visibility: auto`, src/app/features/dub/dub.module.css), though it is on screen then.
 */
async function pressOnScreen(page: EnginePage, find: string): Promise<void> {
  // Rows that come into view render at their own height a frame later and move what is below them:
  // scrolled again after two frames, the element stays where it is read.
  const centre = await page.evaluate<{ x: number; y: number; width: number; height: number }>(`(async () => {
    const e = ${find};
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    e.scrollIntoView({ block: 'center', behavior: 'instant' });
    await frame();
    await frame();
    e.scrollIntoView({ block: 'center', behavior: 'instant' });
    const r = e.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, width: innerWidth, height: innerHeight };
  })()`);
  expect(centre.y, 'the element is on screen').toBeLessThan(centre.height);
  await page.clickAt(centre);
}

/** Waits until the upload queue holds `n` takes in IndexedDB. */
const pendingUploads = (page: EnginePage, n: number) =>
  waitFor(page, `${PENDING_UPLOADS}.then((c) => c === ${n})`);

/**
 * A line's upload spans its window: the line and its margins, less at most the trailing margin when
 * the learner fell silent early, more by at most as long as the clip stood still against the take's
 * clock while the window was open (`moved`, s: src/audio/dsp/windows.ts); ±20 ms.
 */
function expectWindow(samples: number, startMs: number, endMs: number, id: string, moved = 0): void {
  const margin = DEFAULT_WINDOW_MARGIN_SECONDS;
  const full = ((endMs - startMs) / 1000 + 2 * margin) * TARGET_SAMPLE_RATE;
  const tolerance = 0.02 * TARGET_SAMPLE_RATE;
  expect(samples, `line ${id} upload length`).toBeGreaterThanOrEqual(
    full - margin * TARGET_SAMPLE_RATE - tolerance,
  );
  expect(samples, `line ${id} upload length (the clip moved ${moved.toFixed(3)} s)`).toBeLessThanOrEqual(
    full + (moved + 0.02) * TARGET_SAMPLE_RATE,
  );
}

/**
 * How far (s) the clip moved against the take's clock in all, from the dub page's own warning
 * (`[dub] the clip moved <ms> ms in all`, src/app/features/dub/dub-session.ts): the most a window
 * open meanwhile grew by. 0 when the clip kept time.
 */
function clipMovedSeconds(consoleLines: readonly string[]): number {
  const moves = consoleLines
    .map((l) => /\[dub\] the clip moved (-?\d+) ms in all/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Math.abs(Number(m[1])) / 1000);
  return Math.max(0, ...moves);
}

interface LineWindow {
  id: string;
  start: number;
  end: number;
}

/** The film's lines of `ids` with their windows in seconds, in film order. */
async function lineWindows(app: JourneyApp, ids: readonly string[]): Promise<LineWindow[]> {
  const rows = await app.server.app.db
    .selectFrom('subtitles')
    .select(['id', 'start_ms', 'end_ms'])
    .where('id', 'in', [...ids])
    .orderBy('start_ms')
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    start: Number(r.start_ms) / 1000,
    end: Number(r.end_ms) / 1000,
  }));
}

/**
 * The film's second line taken again from its own button, with the wav microphone: its lead-in rolls
 * the clip from the line before with the actor's sound, muted again before the retaken line's window
 * opens (src/app/features/dub/lead-in.ts); the second attempt's score arrives beside the first. The
 * clip's sound switching is read where the page sets the clip's `muted`, with the clip time then.
 */
async function retakeWithLeadIn(
  page: EnginePage,
  engine: EngineName,
  app: JourneyApp,
  run: EngineRun,
  lineIds: readonly string[],
): Promise<void> {
  const windows = await lineWindows(app, lineIds);
  const [prev, line] = windows;
  const firstBefore = await page.evaluate<string>(`${storedEntry(line.id)}.firstUserAudioJson`);
  await page.evaluate(`(() => {
    const v = document.querySelector('[data-testid=dub-video]');
    const seen = (window.__leadIn = []);
    // The clip time when the page sets \`muted\`, not when the volumechange event is handled, which a
    // busy page can do later (WebKitGTK's read 0.5–0.6 s past the silence point in 2 of 8 runs).
    const muted = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'muted');
    Object.defineProperty(v, 'muted', {
      configurable: true,
      get() { return muted.get.call(this); },
      set(value) { seen.push({ muted: !!value, at: this.currentTime, now: performance.now() }); muted.set.call(this, value); },
    });
    // When the page's main thread was held (gaps of a 20 ms interval): a held thread mutes late.
    const gaps = (window.__held = []);
    let last = performance.now();
    window.__heldWatch = setInterval(() => {
      const now = performance.now();
      if (now - last > 60) gaps.push({ from: last, ms: now - last });
      last = now;
    }, 20);
  })()`);
  // The retake records about two seconds: from the scene's wav, whose pauses between sentences could
  // fill them, its speech alone, so the line has a voice to score and the pitch guide a trace to draw.
  const stopMic = await run.pulse.loopMicrophone(speechOnly(micFixture().path));
  // The pitch guide is watched from inside the page while the retake runs (expectPitchGuideDrawn): it
  // lets the learner's trace go a second after the take's recording ends, and a score can take longer.
  await page.evaluate(`(() => {
    const seen = (window.__guideSeen = { actor: 0, learner: 0 });
    const count = ${GUIDE_PIXELS};
    window.__guideWatch = setInterval(() => {
      const n = count();
      seen.actor = Math.max(seen.actor, n.actor);
      seen.learner = Math.max(seen.learner, n.learner);
    }, 100);
  })()`);
  try {
    await page.click(css(`[data-testid="record-${line.id}"]`));
    await waitFor(page, `${storedEntry(line.id)}?.secondUserAudioJson`, 180_000).catch(async (err) => {
      throw new Error(await takeState(page, err));
    });
    await waitFor(page, css('[data-testid="dub-phase"][data-phase="idle"]'), 60_000);
  } finally {
    await stopMic();
  }
  const entry = await page.evaluate<{ firstUserAudioJson: string; secondUserAudioJson: string }>(
    storedEntry(line.id),
  );
  expect(entry.firstUserAudioJson, 'the first attempt is kept').toBe(firstBefore);
  const second = JSON.parse(entry.secondUserAudioJson);
  expect(second.overall).toEqual(expect.any(Number));
  expect(second.quality.speechDetected, 'the retake heard the voice').not.toBe(false);
  await waitFor(page, css(`[data-testid="line-${line.id}"][data-stage="scored"] [data-take="2"]`), 60_000);

  const margin = DEFAULT_WINDOW_MARGIN_SECONDS;
  const sound = await page.evaluate<{ muted: boolean; at: number; now: number }[]>('window.__leadIn');
  const held = await page.evaluate<{ from: number; ms: number }[]>(
    '(() => { clearInterval(window.__heldWatch); return window.__held; })()',
  );
  const on = sound.findIndex((m) => !m.muted);
  const off = sound.slice(on + 1).find((m) => m.muted);
  const told = `clip sound ${JSON.stringify(sound)}; line before ${prev.start}–${prev.end} s, retaken line from ${line.start} s`;
  expect(on, `the lead-in plays the clip's sound (${told})`).toBeGreaterThanOrEqual(0);
  // From just before the line before (lead-in.ts, BEFORE_PREVIOUS), read when its event is handled.
  expect(Math.abs(sound[on].at - (prev.start - 0.2)), told).toBeLessThan(0.35);
  expect(off, `the lead-in falls silent again (${told})`).toBeDefined();
  // The silence is a timer on the page's main thread (lead-in.ts): an engine that holds the thread
  // (WebKitGTK under Xvfb held it 0.2–0.46 s at a time around the silence point) delays it by as
  // long. The hold the silence ran at the end of is allowed for, and printed; nothing else is.
  const mutedAt = off?.now ?? 0;
  const around = held.filter((h) => h.from < mutedAt && h.from + h.ms > mutedAt - 60);
  const allowance = Math.max(0, ...around.map((h) => h.ms)) / 1000;
  console.log(
    `[engines] ${engine} lead-in silenced at clip ${off?.at.toFixed(3)} s, ${((line.start - margin - (off?.at ?? 0)) * 1000).toFixed(0)} ms before the retaken window opens; the page's main thread held ${Math.round(allowance * 1000)} ms as it fell due`,
  );
  expect(off?.at, told).toBeGreaterThan(prev.start);
  expect(
    off?.at,
    `silent before the retaken window opens, but for a main-thread hold of ${allowance} s (${told}; holds ${JSON.stringify(held)})`,
  ).toBeLessThan(line.start - margin + 0.05 + allowance);
}

/** The pitch guide's pixels: the actor's contour (orange) and the learner's pitch (teal). */
const GUIDE_PIXELS = `() => {
  const c = document.querySelector('[data-testid=pitch-guide]');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const near = (r, g, b) => { let n = 0; for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 40 && d[i + 3] > 200) n++; return n; };
  return { actor: near(0xe8, 0xa5, 0x4b), learner: near(0x5e, 0xd3, 0xc4) };
}`;

/**
 * The pitch guide (src/app/features/dub/pitch-guide.tsx) drew the retaken line while it was taken: the
 * actor's contour and the learner's live pitch over it, counted in the canvas's pixels every 100 ms
 * from the click (retakeWithLeadIn) as tests/e2e/watch-dub.test.ts counts them in Chromium.
 */
async function expectPitchGuideDrawn(page: EnginePage, engine: EngineName): Promise<void> {
  const seen = await page.evaluate<{ actor: number; learner: number }>(
    '(() => { clearInterval(window.__guideWatch); return window.__guideSeen; })()',
  );
  console.log(`[engines] ${engine} pitch guide during the retake ${JSON.stringify(seen)}`);
  expect(seen.actor, 'actor contour pixels').toBeGreaterThan(50);
  expect(seen.learner, 'learner pitch pixels').toBeGreaterThan(20);
}

/**
 * Watch my dub (src/app/features/watch-dub/): the clip plays with the learner's takes in place of the
 * actor. Observable here: the player's state, the clip's time advancing, and its schedule
 * (`data-schedule`): each take as it is scheduled on the audio graph, in film order, no actor line left.
 */
async function watchMyDub(page: EnginePage, app: JourneyApp, lineIds: readonly string[]): Promise<void> {
  const [, second] = await lineWindows(app, lineIds);
  await page.click(css('[data-testid="watch-dub-open"]:enabled'));
  await waitFor(
    page,
    css('[data-testid="watch-dub"]:is([data-state="ready"],[data-state="failed"])'),
    60_000,
  );
  const status = await page.evaluate<string>(
    `document.querySelector('[data-testid="watch-dub"] [role=status]').textContent`,
  );
  expect(
    await page.evaluate<string>(`document.querySelector('[data-testid="watch-dub"]').dataset.state`),
    `player says: ${status}`,
  ).toBe('ready');
  await page.click(css('[data-testid="watch-dub-play"]'));
  await waitFor(page, css('[data-testid="watch-dub"][data-state="playing"]'), 30_000);
  const video = `document.querySelector('[data-testid=watch-dub-video]')`;
  const schedule = `document.querySelector('[data-testid="watch-dub"]').dataset.schedule`;
  const from = await page.evaluate<number>(`${video}.currentTime`);
  // The clip plays on, and the takes are scheduled on the audio graph as their windows come near. Not
  // every take from its start: WebKitGTK under Xvfb shows about two frames a second, the player learns
  // the clip's clock late, skips takes whose window has begun and starts others part way in
  // (docs/browsers.md); where each take is heard is measured in Chromium (tests/e2e/watch-dub.test.ts).
  await waitFor(
    page,
    `${video}.currentTime > ${Math.max(from + 1, second.start + 0.5)} && JSON.parse(${schedule} || '{"takes":[]}').takes.length >= 1`,
    60_000,
  ).catch(async (err) => {
    throw new Error(
      `${err.message}\nclip at ${await page.evaluate(`${video}.currentTime`)}, schedule ${await page.evaluate(schedule)}`,
    );
  });
  const played = JSON.parse(await page.evaluate<string>(schedule)) as {
    takes: { lineId: string; when: number; offset: number }[];
    actorLines: string[];
  };
  console.log(
    `[engines] watch my dub: clip from ${from.toFixed(2)} s, scheduled ${JSON.stringify(played.takes)}`,
  );
  expect(played.actorLines, 'every line is dubbed: no actor line in the mix').toEqual([]);
  const order = played.takes.map((t) => lineIds.indexOf(t.lineId));
  expect(
    Math.min(...order),
    `takes of the film's lines (${JSON.stringify(played.takes)})`,
  ).toBeGreaterThanOrEqual(0);
  expect(order, 'in film order').toEqual([...order].sort((a, b) => a - b));
  await settle(page);
}

/** Ends the playback and closes the popup with a press on its backdrop, as on a touch screen. */
async function closeWatchMyDub(page: EnginePage): Promise<void> {
  if (await page.evaluate<boolean>(`!!${css('[data-testid="watch-dub-stop"]')}`))
    await page.click(css('[data-testid="watch-dub-stop"]'));
  await page.clickAt({ x: 8, y: 8 });
  await waitFor(page, `!document.querySelector('dialog[open]')`);
}

/** The report's history (run-history.tsx) lists this run, marked as this one. */
async function expectThisRunInHistory(page: EnginePage): Promise<void> {
  await waitFor(page, css('[data-testid="run-history"] tbody tr[aria-current="true"]'), 60_000);
  expect(
    await page.evaluate<string>(
      `document.querySelector('[data-testid="run-history"] tbody tr[aria-current="true"]').textContent`,
    ),
  ).toContain(FILM.title);
}

/**
 * The H5 share page (server/routes/producer/h5-report.ts) in a page of its own at phone size: no
 * login, the report of this run, its dubbed video fits the screen and plays from a tap on it.
 */
async function sharePagePlays(phone: EnginePage, h5: string): Promise<void> {
  await phone.goto(h5);
  expect(new URL(await phone.url()).pathname).not.toMatch(/login/);
  await waitFor(phone, containing('h1', FILM.title), 30_000);
  await waitFor(phone, "document.querySelector('video.dub')?.readyState >= 1", 60_000);
  expect(
    await phone.evaluate<number>("document.querySelector('video.dub').getBoundingClientRect().width"),
  ).toBeLessThanOrEqual(PHONE.width);
  await phone.click(css('video.dub'));
  await waitFor(phone, "document.querySelector('video.dub').currentTime > 1", 60_000);
  const state = await phone.evaluate<{ width: number; height: number; error: string | null }>(`(() => {
    const v = document.querySelector('video.dub');
    return { width: v.videoWidth, height: v.videoHeight, error: v.error && v.error.message };
  })()`);
  expect(state).toEqual({ width: 640, height: 360, error: null });
  expect(await phone.evaluate<string>('document.cookie'), 'no login on the phone').toBe('');
}

/**
 * Log out from the header (screen-tools.tsx): the part's standby, the server's session gone, and a
 * guarded page asks for a login again.
 */
async function logOutToStandby(
  page: EnginePage,
  app: JourneyApp,
  part: 'prpo' | 'prpt',
  label: string,
): Promise<void> {
  const sessions = async () =>
    (await app.server.app.db.selectFrom('sessions').select('token_hash').execute()).length;
  const before = await sessions();
  await page.click(named('button', label));
  await onPage(page, `${part}/standby`);
  expect(new URL(await page.url()).pathname).toBe(`/${part}/standby`);
  expect(await sessions(), 'the server ended the session').toBe(before - 1);
  await page.goto(`${await page.evaluate<string>('location.origin')}/${part}/movies`);
  await onPage(page, `${part}/login`);
}

/**
 * QR login (src/app/stores/qr-login.ts): the kiosk's login page shows a code; a phone opens its link in
 * a page of its own (its own cookies), signs in there and confirms (server/routes/producer/h5-qr.ts);
 * the kiosk's poll sees it and goes on to the page it was asked for. The link is the one the code
 * holds: the server's own for the request the page made (the newest one waiting).
 */
async function qrLogin(
  page: EnginePage,
  app: JourneyApp,
  run: EngineRun,
  shot: (page: EnginePage, journey: string, screen: string) => Promise<void>,
): Promise<void> {
  await page.goto(`${app.origin}/prpt/movies`);
  await onPage(page, 'prpt/login');
  await waitFor(page, css('[data-qr-phase="waiting"]'), 30_000);
  await waitFor(
    page,
    `document.querySelector('img[alt=${JSON.stringify(zhText('signin.qr.alt'))}]')?.complete`,
  );
  await settle(page);
  await shot(page, 'sessions', 'login-qr');
  const { uuid } = await app.server.app.db
    .selectFrom('qr_logins')
    .select('uuid')
    .where('state', '=', 'waiting')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const phone = await run.engine.newPage(PHONE);
  try {
    await phone.goto(localQrProvider.linkFor(uuid, app.origin, 'zh'));
    await waitFor(phone, css('input#account'), 30_000);
    await settle(phone);
    await shot(phone, 'sessions', 'qr-confirm-phone');
    await phone.type(css('input#account'), DEMO.account);
    await phone.type(css('input#password'), DEMO.password);
    await phone.click(css('button.primary'));
    await waitFor(phone, containing('h1, h2', statementsZh['qr.confirmed']), 30_000);
    await settle(phone);
    await shot(phone, 'sessions', 'qr-confirmed-phone');
    expect(await phone.errors()).toEqual([]);
  } finally {
    await phone.close();
  }
  await onPage(page, 'prpt/movies', 90_000);
  await waitFor(page, containing('a', FILM.title));
  await settle(page);
  await shot(page, 'sessions', 'movies-after-qr');
}

/**
 * A copy of `wav` with its speech alone: 20 ms frames louder than a tenth of its loud frames' level
 * (their 90th percentile), joined. Written beside it on every call (whole, as micFixture writes its
 * copy), so it never outlives a change of the fixture.
 */
function speechOnly(wav: string): string {
  const out = wav.replace(/\.wav$/, '-speech.wav');
  const decoded = decodeWav(fs.readFileSync(wav));
  const samples = toMono(decoded);
  const frame = Math.round(decoded.sampleRate * 0.02);
  const rms: number[] = [];
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let sum = 0;
    for (let k = i; k < i + frame; k++) sum += samples[k] * samples[k];
    rms.push(Math.sqrt(sum / frame));
  }
  const loud = [...rms].sort((a, b) => a - b)[Math.floor(rms.length * 0.9)];
  const kept: Float32Array[] = [];
  rms.forEach((r, n) => {
    if (r > loud / 10) kept.push(samples.subarray(n * frame, (n + 1) * frame));
  });
  const speech = new Float32Array(kept.length * frame);
  kept.forEach((f, n) => {
    speech.set(f, n * frame);
  });
  writeWhole(out, Buffer.from(encodeWav16(speech, decoded.sampleRate)));
  return out;
}
