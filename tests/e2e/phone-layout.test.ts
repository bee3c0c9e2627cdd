import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { firstEn } from '../../src/app/i18n/messages/first.en';
import { firstZh } from '../../src/app/i18n/messages/first.zh';
import { laterEn } from '../../src/app/i18n/messages/later.en';
import { laterZh } from '../../src/app/i18n/messages/later.zh';
import { journeyForFile } from '../support/journey/app';
import { learnerPage, onPage } from '../support/journey/contexts';
import { answerAll, FILM } from '../support/journey/flow';
import { KIOSK, PHONE } from '../support/journey/sizes';
import { type FilmLines, fakeMicArgs, login, prptFilm } from './recording-helpers';

// The screens a learner meets on a phone, measured
// in real Chromium under the production build and its Content-Security-Policy (startJourneyApp), at
// phone and kiosk size, in Chinese and English. Each rule is a measurement of the laid-out page, and
// every state is photographed to test-results/point9/<rule>-<size>-<lang>.png for people to look at.
const OUT = path.resolve(import.meta.dirname, '../../test-results/point9');
const SIZES = { phone: PHONE, kiosk: KIOSK } as const;
type Size = keyof typeof SIZES;
type Lang = 'zh' | 'en';
const TEXT = { zh: laterZh, en: laterEn } as const;
const FIRST = { zh: firstZh, en: firstEn } as const;

let film: FilmLines;

const journey = journeyForFile({ chromiumArgs: fakeMicArgs, hookTimeout: 300_000 });
beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  film = await prptFilm(journey.app.origin, await login(journey.app.origin), FILM.titleEn);
}, 300_000);

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;

const box = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    });

/** A line height of an element in px (its computed `line-height`, or 1.2 × its font size). */
const lineHeight = (page: Page, selector: string) =>
  page.evaluate<number>(`(() => {
    const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
    const lh = Number.parseFloat(s.lineHeight);
    return Number.isFinite(lh) ? lh : 1.2 * Number.parseFloat(s.fontSize);
  })()`);

async function shoot(page: Page, name: string, size: Size, lang: Lang, fullPage = true): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await page.screenshot({
    path: path.join(OUT, `${name}-${size}-${lang}.png`),
    fullPage,
    animations: 'disabled',
  });
}

/** A learner's browser in a language, signed in as the demo account (its token cookie). */
const learner = async (lang: Lang, size: Size) =>
  learnerPage(journey.browser, journey.app.origin, { lang, size, token: await login(journey.app.origin) });

/** Answers the film's questions (the open one with a long sentence) so the report has them. */
async function answer(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${journey.app.origin}/prpt/answer/${film.id}`);
  await onPage(page, 'prpt/answer');
  await answerAll(page);
  await page.getByRole('button', { name: TEXT[lang]['answer.submit'] }).click();
  await onPage(page, 'prpt/result');
}

describe.each(['zh', 'en'] as const)('point 9: phone layout (%s)', (lang) => {
  const t = TEXT[lang];

  test('dub page: the scene take is the main action, the badge clear of the title, the pitch guide in view, each score beside its take', {
    timeout: 420_000,
  }, async () => {
    const { context, page, errors } = await learner(lang, 'phone');
    try {
      await answer(page, lang);
      await page.goto(`${journey.app.origin}/prpt/dub/${film.id}`);
      await onPage(page, 'prpt/dub');
      const sceneTake = page.getByTestId('dub-scene-take');
      await sceneTake.waitFor({ timeout: 30_000 });

      /** The visible main (primary) actions of the page, by their text. */
      const primaries = () =>
        page
          .locator('[data-screen="dub"] [data-variant="primary"]:visible')
          .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        await shoot(page, 'point9-dub-main-action', size, lang);
        expect(await primaries(), `${size}: the one main action`).toEqual([t['dub.sceneTake']]);
      }
      await page.setViewportSize(PHONE);

      // Point 10: the microphone check before the first take hears the (fake) microphone's voice.
      await page.getByTestId('mic-check-start').click();
      await page.locator('[data-testid="mic-check"][data-phase="heard"]').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('mic-check').getByRole('status').textContent()).toBe(
        t['dub.micCheckHeard'],
      );
      await shoot(page, 'point10-mic-check', 'phone', lang, false);

      // A scene take (long enough to measure both sizes while it records): the badge sits clear of the
      // title, the clip and the cue, and the pitch guide is on screen with the video (the stage stays
      // at the top during a take). Stopped once its first line is scored.
      const first = film.lines[0];
      await sceneTake.click();
      await page.locator('[data-testid="dub-phase"][data-phase="recording"]').waitFor({ timeout: 60_000 });
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        await shoot(page, 'point9-dub-recording', size, lang, false);
        const badge = await box(page, '[data-testid="dub-recording-badge"]');
        const viewport = SIZES[size];
        for (const other of [
          '[data-screen="dub"] h1',
          '[data-testid="dub-video"]',
          '[data-testid="line-prompt"]',
        ]) {
          const b = await box(page, other);
          // Only what is on screen can be covered.
          if (b.bottom > 0 && b.top < viewport.height)
            expect(overlaps(badge, b), `${size}: the badge covers ${other}`).toBe(false);
        }
        const guide = await box(page, '[data-testid="pitch-guide"]');
        expect(guide.top, `${size}: pitch guide top`).toBeGreaterThanOrEqual(0);
        expect(guide.bottom, `${size}: pitch guide above the fold`).toBeLessThanOrEqual(viewport.height);
      }
      await page.setViewportSize(PHONE);
      await page
        .locator(`[data-testid="line-${first.id}"][data-stage="scored"]`)
        .waitFor({ timeout: 180_000 });
      await page.getByTestId('dub-stop').click();
      await page
        .locator('[data-testid="dub-phase"][data-phase="idle"]')
        .waitFor({ state: 'attached', timeout: 60_000 });

      // A retake: two takes, and each score sits in its take's group with that take's play button.
      await page.locator(`[data-testid="record-${first.id}"]:enabled`).click();
      await page.locator('[data-testid="dub-phase"][data-phase="recording"]').waitFor({ timeout: 60_000 });
      const row = page.getByTestId(`line-${first.id}`);
      await row.locator('[data-take="2"]').waitFor({ timeout: 180_000 });
      await page
        .locator('[data-testid="dub-phase"][data-phase="idle"]')
        .waitFor({ state: 'attached', timeout: 60_000 });
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        for (const n of [1, 2]) {
          const take = row.locator(`[data-take="${n}"]`);
          await take
            .getByRole('img', { name: new RegExp(`^${t[`dub.attempt${n}` as 'dub.attempt1']} \\d+`) })
            .waitFor();
          await take.getByRole('button', { name: new RegExp(t['dub.play']) }).waitFor();
        }
        const [one, two] = [
          await box(page, `[data-testid="line-${first.id}"] [data-take="1"]`),
          await box(page, `[data-testid="line-${first.id}"] [data-take="2"]`),
        ];
        expect(overlaps(one, two), `${size}: the takes apart`).toBe(false);
        // After a scored take the tips link is still not a second main action.
        expect(await primaries(), `${size}: the one main action after a take`).toEqual([t['dub.sceneTake']]);
        await row.scrollIntoViewIfNeeded();
        await shoot(page, 'point9-dub-takes', size, lang);
      }

      // Point 10: Watch my dub's video stays inside its popup, at both sizes.
      await page.getByTestId('watch-dub-open').click();
      await page.getByTestId('watch-dub-video').waitFor({ timeout: 60_000 });
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        await shoot(page, 'point10-watch-dub', size, lang, false);
        const video = await box(page, '[data-testid="watch-dub-video"]');
        const dialog = await box(page, 'dialog[open]');
        expect(video.right, `${size}: video's right edge inside the popup`).toBeLessThanOrEqual(dialog.right);
        expect(video.left).toBeGreaterThanOrEqual(dialog.left);
        // The seek bar too, and wide enough to aim at (a third of the video at least).
        const seek = await box(page, '[data-testid="watch-dub-seek"]');
        expect(seek.right, `${size}: seek bar's right edge inside the popup`).toBeLessThanOrEqual(
          dialog.right,
        );
        expect(seek.width, `${size}: seek bar's width`).toBeGreaterThan(video.width / 3);
        expect(
          await page.locator('dialog[open]').evaluate((d) => d.scrollWidth <= d.clientWidth),
          `${size}: nothing in the popup scrolls sideways`,
        ).toBe(true);
      }
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("header: every control's label on one line at phone and kiosk size; on a phone in Chinese the language switch beside the brand", {
    timeout: 120_000,
  }, async () => {
    const { context, page, errors } = await learner(lang, 'phone');
    try {
      await page.goto(`${journey.app.origin}/prpt/movies`);
      await onPage(page, 'prpt/movies');
      const header = page.locator('[data-layout-header]');
      await header.getByRole('button', { name: FIRST[lang]['ui.logoutAll'] }).waitFor();
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        await shoot(page, 'point9-header', size, lang, false);
        // Lines of each control's label: the distinct tops of its text's line boxes.
        const labels = await header.locator('button').evaluateAll((buttons) =>
          buttons.map((b) => {
            const range = b.ownerDocument.createRange();
            range.selectNodeContents(b);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return { text: b.textContent ?? '', lines: tops.size };
          }),
        );
        expect(labels.length, `${size}: controls in the header`).toBeGreaterThanOrEqual(4);
        for (const l of labels) expect(l.lines, `${size}: lines of "${l.text}"`).toBe(1);
      }
      if (lang === 'zh') {
        await page.setViewportSize(SIZES.phone);
        const brand = await box(page, '[data-layout-header] .layout-brand');
        const languages = await header
          .getByRole('group', { name: FIRST[lang]['ui.language'] })
          .evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
        expect(
          languages.top < brand.bottom && brand.top < languages.bottom,
          "the switch on the brand's row",
        ).toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('report: the open question and the history dates read as text, at phone and kiosk size', {
    timeout: 180_000,
  }, async () => {
    const { context, page, errors } = await learner(lang, 'phone');
    try {
      await answer(page, lang);
      await page.goto(`${journey.app.origin}/prpt/report`);
      await onPage(page, 'prpt/report');
      const open = page.locator('[data-screen="report"] li', { hasText: t['result.open'] }).first();
      await open.waitFor({ timeout: 60_000 });
      const history = page.locator('[data-testid="run-history"] tbody th').first();
      await history.waitFor({ timeout: 60_000 });
      for (const size of ['phone', 'kiosk'] as const) {
        await page.setViewportSize(SIZES[size]);
        await open.scrollIntoViewIfNeeded();
        await shoot(page, 'point9-report-open-question', size, lang);
        await history.scrollIntoViewIfNeeded();
        await shoot(page, 'point9-report-history', size, lang, false);
        const item = await open.evaluate((li) => {
          const rect = (e: { getBoundingClientRect(): Box }) => {
            const r = e.getBoundingClientRect();
            return {
              top: r.top,
              bottom: r.bottom,
              left: r.left,
              right: r.right,
              width: r.width,
              height: r.height,
            };
          };
          const [question, label] = [li.children[0], li.children[1]];
          return { li: rect(li), question: rect(question), label: rect(label) };
        });
        // The question takes most of the row's width (not a word or a character a line) ...
        expect(
          item.question.width / item.li.width,
          `${size}: the question's share of the row`,
        ).toBeGreaterThan(0.6);
        // ... and its label stays inside the row, clear of the question.
        expect(overlaps(item.question, item.label), `${size}: the label over the question`).toBe(false);
        expect(item.label.right, `${size}: the label inside the row`).toBeLessThanOrEqual(item.li.right + 1);
        const dateLines =
          (await history.evaluate((e) => e.getBoundingClientRect().height)) /
          (await lineHeight(page, '[data-testid="run-history"] tbody th'));
        expect(dateLines, `${size}: lines of a history date`).toBeLessThanOrEqual(2.5);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('point 10: the English apostrophe', () => {
  // On a Chinese page too: an English run there (a film's English title, a name) takes the Latin
  // face, and Chinese falls through to the CJK faces listed after it (src/app/styles/tokens.css).
  test.each(['en', 'zh'] as const)(
    'on the %s page is as narrow as in Latin type, not a full-width CJK glyph, in the body and display faces',
    async (lang) => {
      const { context, page } = await learner(lang, 'phone');
      try {
        await page.goto(`${journey.app.origin}/prpt/intro`);
        await onPage(page, 'prpt/intro');
        for (const face of ['--font-sans', '--font-display']) {
          const widths = await page.evaluate(`(() => {
          const s = document.createElement('span');
          s.style.fontFamily = 'var(${face})';
          s.style.fontSize = '32px';
          document.body.append(s);
          const w = (text) => { s.textContent = text; return s.getBoundingClientRect().width; };
          const r = { curly: w('actor\\u2019s'), straight: w("actor's"), m: w('M'), han: w('\\u4e2d') };
          s.remove();
          return r;
        })()`);
          const { curly, straight, m, han } = widths as {
            curly: number;
            straight: number;
            m: number;
            han: number;
          };
          // A full-width apostrophe is about an em wide; a Latin one is under half the width of an M.
          expect(curly - straight, `${lang} ${face}: extra width of ’ over '`).toBeLessThan(0.3 * m);
          // Chinese still reaches a CJK face: a Han character is a full em.
          expect(han, `${lang} ${face}: width of 中 at 32px`).toBeGreaterThan(0.9 * 32);
        }
        await page.goto(`${journey.app.origin}/prpt/dub/${film.id}`);
        await onPage(page, 'prpt/dub');
        await shoot(page, 'point10-apostrophe', 'phone', lang, false);
      } finally {
        await context.close();
      }
    },
  );
});
