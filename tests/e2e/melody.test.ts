import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyzeVoice } from '../../src/audio/analysis';
import { TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { mmssToSeconds } from '../../src/audio/dsp/time';
import { resample } from '../../src/audio/dsp/resample';
import { compareVoices } from '../../src/audio/scoring/compare';
import { median, speechFrames } from '../../src/audio/scoring/contour';
import { melodyPlan } from '../../src/audio/scoring/melody';
import { launchChromium, waitForExpression } from '../support/browser';
import { type JourneyApp, startJourneyApp } from '../support/journey/app';
import { FAKE_MIC_ARGS, type FilmLines, login, micFixture, prptFilm } from './recording-helpers';

// "Your voice with the actor's melody" in real Chromium, served by the real server under its
// Content-Security-Policy: a line recorded with the fake microphone, its score awaited, then the
// line's three versions played from the line's detail. The test reads what the page's own audio
// graph played (every AudioBufferSourceNode.start, its buffer's samples) and measures the melody
// version's pitch against the target the resynthesis aims at: the actor's contour, in semitones re
// the actor's median, moved onto the learner's median (src/audio/scoring/melody.ts `melodyPlan`).
const FILM = 'The Rag on the Fridge';
/** bench/melody.ts's goal for the output's median pitch error against the same target. */
const MAX_MEDIAN_ERROR_ST = 0.5;
/**
 * Gross errors (> 1 st) on one line. The bench's goal (5 %) is a share over every frame of all its
 * pairs; one line here compares 50–70 frames, so each frame is 1.5–2 % of it, and the fake
 * microphone gives a different take each run. The gross frames are where a voiced stretch of the
 * output begins (the tracker's window holds one or two grains, whose inside still has the take's
 * period) or where the take's own pitch moves fast; over 14 runs of this line, quiet and on a loaded
 * machine, the share was 0–10.6 %, and 15.4 % once in CI. A melody that does not follow the actor
 * (the take's own pitch, about 2.5 st off here) has 70–76 % of its frames over 1 st.
 */
const MAX_GROSS_SHARE_ONE_LINE = 0.25;

const TAP_SCRIPT = `(() => {
  window.__played = [];
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    const b = this.buffer;
    // A line's clip is copied whole; a longer buffer (Watch my dub's bed) only by its length.
    if (b) window.__played.push({ rate: b.sampleRate, samples: b.duration < 15 ? Array.from(b.getChannelData(0)) : { length: b.length } });
    return start.apply(this, args);
  };
})()`;

interface Played {
  rate: number;
  samples: number[];
}

let journey: JourneyApp;
let browser: Browser;
let film: FilmLines;
let token: string;

beforeAll(async () => {
  const mic = micFixture();
  journey = await startJourneyApp();
  token = await login(journey.server.url);
  film = await prptFilm(journey.server.url, token, FILM);
  browser = await launchChromium(FAKE_MIC_ARGS(mic.path));
});

afterAll(async () => {
  await browser?.close();
  await journey?.close();
});

const at16k = (b: Played) => resample(Float32Array.from(b.samples), b.rate, TARGET_SAMPLE_RATE);

/**
 * The melody version's pitch, by our tracker, against the target the resynthesis aims at, as
 * bench/melody.ts measures it: the plan's target (the actor's contour at the comparison's step, in
 * semitones re the actor's median, on the learner's median) over output frames voiced where the
 * actor is voiced. Each clip is what the page's graph played, back at the app's 16 kHz.
 */
function pitchAgainstTarget(actorPlayed: Played, takePlayed: Played, melodyPlayed: Played) {
  const take = at16k(takePlayed);
  const actor = analyzeVoice(at16k(actorPlayed), TARGET_SAMPLE_RATE);
  const learner = analyzeVoice(take, TARGET_SAMPLE_RATE);
  const out = analyzeVoice(at16k(melodyPlayed), TARGET_SAMPLE_RATE).frames;
  const { from, to } = speechFrames(learner);
  const learnerMedianHz = median(Array.from(learner.frames.f0Hz.slice(from, to)).filter((f) => f > 0));
  const comparison = compareVoices(learner, actor);
  const plan = melodyPlan(
    { take, sampleRate: TARGET_SAMPLE_RATE, learner, actor, comparison },
    learnerMedianHz,
  );
  const errors: number[] = [];
  const takeErrors: number[] = [];
  let actorVoiced = 0;
  for (let k = 0; k < out.f0Hz.length; k++) {
    const t = (k + 0.5) * out.hopSeconds;
    if (!(actor.frames.f0Hz[Math.floor(t / actor.frames.hopSeconds)] > 0)) continue;
    actorVoiced++;
    const target = plan.targetF0(t);
    if (out.f0Hz[k] > 0 && target > 0) errors.push(Math.abs(12 * Math.log2(out.f0Hz[k] / target)));
    // The take itself at the moment the output took its grain from, against the same target.
    const src = learner.frames.f0Hz[Math.round(plan.sourceTime(t) / learner.frames.hopSeconds - 0.5)];
    if (src > 0 && target > 0) takeErrors.push(Math.abs(12 * Math.log2(src / target)));
  }
  return {
    frames: errors.length,
    actorVoiced,
    medianSt: median(errors),
    grossShare: errors.filter((e) => e > 1).length / Math.max(1, errors.length),
    takeMedianSt: median(takeErrors),
    takeGrossShare: takeErrors.filter((e) => e > 1).length / Math.max(1, takeErrors.length),
  };
}

describe("your voice with the actor's melody in Chromium", () => {
  test('a recorded line, once scored, plays three ways; the melody version follows the actor’s contour on the learner’s median; phone and kiosk; Watch my dub plays it in place of the take', async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    await context.addInitScript(TAP_SCRIPT);
    await context.addCookies([{ name: 'user-token', value: token, url: journey.origin }]);
    const page = await context.newPage();
    const errors: string[] = [];
    const refused: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    try {
      await page.goto(`${journey.origin}/prpt/dub/${film.id}`);
      const line = film.lines[1];
      await page.locator(`[data-testid="record-${line.id}"]:enabled`).click({ timeout: 30_000 });
      await page.locator(`[data-testid="line-${line.id}"][data-stage="scored"]`).waitFor({ timeout: 90_000 });
      await page.getByTestId(`details-${line.id}`).click();
      const versions = page.getByTestId('melody-versions');
      await versions.waitFor();

      const play = async (version: 'actor' | 'take' | 'melody'): Promise<Played> => {
        const before = (await page.evaluate('window.__played.length')) as number;
        await page.getByTestId(`melody-play-${version}`).click();
        await waitForExpression(page, `window.__played.length > ${before}`);
        return (await page.evaluate('window.__played.at(-1)')) as Played;
      };
      const actor = await play('actor');
      const take = await play('take');
      const melody = await play('melody');

      // The melody version runs on the actor's clock: it lasts as long as the actor's line.
      expect(Math.abs(melody.samples.length / melody.rate - actor.samples.length / actor.rate)).toBeLessThan(
        0.01,
      );
      const pitch = pitchAgainstTarget(actor, take, melody);
      console.info(
        `[melody] ${line.id}: ${pitch.frames} of ${pitch.actorVoiced} actor-voiced frames voiced in the output; median |error| ${pitch.medianSt.toFixed(2)} st, gross (> 1 st) ${(pitch.grossShare * 100).toFixed(1)} %; the take itself ${pitch.takeMedianSt.toFixed(2)} st, gross ${(pitch.takeGrossShare * 100).toFixed(1)} %`,
      );
      expect(pitch.frames, 'voiced frames compared').toBeGreaterThan(pitch.actorVoiced / 2);
      expect(pitch.medianSt).toBeLessThanOrEqual(MAX_MEDIAN_ERROR_ST);
      expect(pitch.grossShare).toBeLessThanOrEqual(MAX_GROSS_SHARE_ONE_LINE);
      expect(pitch.medianSt, 'closer to the target than the take itself').toBeLessThan(pitch.takeMedianSt);
      expect(pitch.grossShare, 'fewer gross errors than the take itself').toBeLessThan(
        pitch.takeGrossShare / 2,
      );

      // The overlay draws the third line, and the three buttons fit a kiosk and a phone.
      for (const viewport of [
        { width: 1920, height: 1080 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        for (const version of ['actor', 'take', 'melody']) {
          const box = await page.getByTestId(`melody-play-${version}`).boundingBox();
          expect(box, `${version} button at ${viewport.width}`).not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width, `${version} button inside ${viewport.width}`).toBeLessThanOrEqual(
            viewport.width,
          );
        }
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        expect(overflow, `no sideways scroll at ${viewport.width}`).toBeLessThanOrEqual(0);
      }
      // Watch my dub "with the actor's melody": the line's melody version is what the graph plays,
      // its first sample at the line's start (the actor's cut line has no margin).
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.locator('[data-testid="watch-dub-open"]:enabled').click();
      await page.getByTestId('watch-dub-melody').check();
      await page.locator('[data-testid="watch-dub"][data-state="ready"]').waitFor({ timeout: 30_000 });
      const before = (await page.evaluate('window.__played.length')) as number;
      await page.getByTestId('watch-dub-play').click();
      await page.locator('[data-testid="watch-dub"][data-schedule]').waitFor({ timeout: 30_000 });
      await waitForExpression(
        page,
        `window.__played.slice(${before}).some((p) => p.samples.length === ${melody.samples.length})`,
      );
      const schedule = JSON.parse(
        (await page.getByTestId('watch-dub').getAttribute('data-schedule')) ?? 'null',
      ) as { takes: { lineId: string; clipStart: number }[] };
      expect(schedule.takes).toEqual([
        expect.objectContaining({ lineId: line.id, clipStart: mmssToSeconds(line.startTime) }),
      ]);
      await page.getByTestId('watch-dub-stop').click();

      // The report's line: the same three versions (the server's copies, by their signed links).
      // A film's latest run (src/app/lib/route-table.ts, `prpt/report`); lib/paths.ts is React code.
      await page.goto(`${journey.origin}/prpt/report?filmId=${encodeURIComponent(film.id)}`);
      const detail = page.getByTestId(`report-line-detail-${line.id}`);
      await detail.waitFor({ timeout: 60_000 });
      await detail.locator('summary').click();
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(viewport);
        for (const version of ['actor', 'take', 'melody']) {
          const box = await detail.getByTestId(`melody-play-${version}`).boundingBox();
          expect(box, `report's ${version} button at ${viewport.width}`).not.toBeNull();
          expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        }
      }
      const reportPlays = (await page.evaluate('window.__played.length')) as number;
      await detail.getByTestId('melody-play-melody').click();
      await waitForExpression(
        page,
        `window.__played.length > ${reportPlays} && window.__played.at(-1).samples.length === ${melody.samples.length}`,
      );

      expect(refused, 'requests the page policy refused').toEqual([]);
      expect(errors, 'script errors on the page').toEqual([]);
    } finally {
      await context.close();
    }
  });
});
