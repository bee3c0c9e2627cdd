import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { journeyForFile } from '../support/journey/app';
import { learnerPage, onPage } from '../support/journey/contexts';
import { answerAll, FILM } from '../support/journey/flow';
import { qrLinkFrom } from '../support/journey/login';
import { KIOSK, PHONE } from '../support/journey/sizes';
import { firstEn } from '../../src/app/i18n/messages/first.en';
import { laterEn } from '../../src/app/i18n/messages/later.en';
import { laterZh } from '../../src/app/i18n/messages/later.zh';
import { statementsEn } from '../../src/i18n/statements.en';
import { statementsZh } from '../../src/i18n/statements.zh';
import { login, prptFilm } from './recording-helpers';

// Width and touch targets, measured on every page of both parts at phone size (390×844), in
// English and Chinese, under the production build and its Content-Security-Policy: no page is wider
// than the screen, and every control a finger presses is at least 44×44 CSS px (WCAG 2.5.5). Each
// page is photographed to test-results/phone-fit/<page>-<lang>.png.
const OUT = path.resolve(import.meta.dirname, '../../test-results/phone-fit');
/** The smallest touch target, CSS px (WCAG 2.5.5; --target-min in src/app/styles/tokens.css is above it). */
const TARGET = 44;
type Lang = 'zh' | 'en';
const TEXT = { zh: laterZh, en: laterEn } as const;
const STATEMENTS = { zh: statementsZh, en: statementsEn } as const;
/** The language switch's names (each language in itself). */
const NAMES = { zh: '中文', en: 'English' } as const;

let token: string;

const journey = journeyForFile({ hookTimeout: 300_000 });
beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  token = await login(journey.app.origin);
}, 300_000);

/** What one page measured: its width beside the screen's, and each control under the target. */
interface Fit {
  scrollWidth: number;
  /** Controls measured (a check over none would pass on an empty page). */
  controls: number;
  small: string[];
  /** Elements whose right edge is past the screen's (what makes the page wide). */
  wide: string[];
}

/**
 * Measures the laid-out page. A control is a button, a link, a summary, a form field, or the label of
 * a radio or checkbox (the label is what a finger presses: the box inside it is its mark). Hidden and
 * visually-hidden elements are not on screen to press. Every disclosure is opened first, so what it
 * holds is measured too.
 */
const MEASURE = `(() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const name = (e) => {
    const text = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('value') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const id = e.getAttribute('data-testid');
    return e.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + ' "' + text + '"';
  };
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (e.closest('.visually-hidden, [hidden], [inert]')) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const seen = new Set();
  // The phone's width, not innerWidth: a mobile browser zooms out to show a page wider than the screen,
  // and its innerWidth grows with the page.
  const screen = ${PHONE.width};
  const out = { scrollWidth: document.documentElement.scrollWidth, controls: 0, small: [], wide: [] };
  const controls = document.querySelectorAll(
    'button, a[href], summary, select, textarea, input:not([type=hidden]), label[for], [role=button]',
  );
  for (const e of controls) {
    let target = e;
    if (e.matches('input[type=radio], input[type=checkbox]'))
      target = e.closest('label') || (e.id && document.querySelector('label[for="' + e.id + '"]')) || e;
    else if (e.matches('label[for]')) {
      const field = document.getElementById(e.htmlFor);
      // A text field's label names it; the field is the target.
      if (!field || !field.matches('input[type=radio], input[type=checkbox]')) continue;
    }
    if (seen.has(target) || !shown(target)) continue;
    seen.add(target);
    out.controls++;
    const r = target.getBoundingClientRect();
    if (r.width < ${TARGET} - 0.5 || r.height < ${TARGET} - 0.5)
      out.small.push(name(target) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  // Anything drawn past the screen's right edge (the innermost such elements), even where a parent
  // clips it: a cut card is as unreadable as a page that scrolls sideways. A table in its own
  // sideways scroller is read by scrolling it; decoration hidden from assistive tech (the standby's
  // drifting wall of words) is not read at all.
  const inScroller = (e) => {
    for (let n = e.parentElement; n && n !== document.body; n = n.parentElement)
      if (['auto', 'scroll'].includes(getComputedStyle(n).overflowX)) return true;
    return false;
  };
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    const past = (x) => x.getBoundingClientRect().right > screen + 0.5;
    if (r.width > 0 && past(e) && shown(e) && ![...e.children].some(past) && !inScroller(e) && !e.closest('[aria-hidden="true"]'))
      out.wide.push(name(e) + ' right ' + Math.round(r.right));
  }
  out.wide = out.wide.slice(0, 8);
  return out;
})()`;

/** Ink on a canvas: pixels drawn on its outermost 2 CSS px columns and rows, and inside them. */
interface Ink {
  edges: number;
  inside: number;
}
/** What canvasInk reads of a canvas (this file is type-checked without the DOM's types). */
interface CanvasLike {
  width: number;
  height: number;
  getBoundingClientRect(): { width: number };
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}
/** Runs in the page, on the canvas element. */
function canvasInk(element: unknown): Ink {
  const canvas = element as CanvasLike;
  const { width: w, height: h } = canvas;
  const data = canvas.getContext('2d').getImageData(0, 0, w, h).data;
  const edge = Math.ceil(2 * (w / canvas.getBoundingClientRect().width));
  let edges = 0;
  let inside = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3] === 0) continue;
      if (x < edge || x >= w - edge || y < edge || y >= h - edge) edges++;
      else inside++;
    }
  return { edges, inside };
}

/** Every page's problems, by page: a test fails with the whole list, not the first one. */
class Checks {
  readonly problems: string[] = [];
  pages = 0;
  constructor(readonly lang: Lang) {}

  async check(page: Page, name: string): Promise<void> {
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const fit = (await page.evaluate(MEASURE)) as Fit;
    await page.screenshot({
      path: path.join(OUT, `${name}-${this.lang}.png`),
      fullPage: true,
      animations: 'disabled',
    });
    this.pages++;
    if (fit.controls === 0) this.problems.push(`${name}: no controls measured`);
    if (fit.scrollWidth > PHONE.width || fit.wide.length)
      this.problems.push(
        `${name}: ${fit.scrollWidth} px wide on a ${PHONE.width} px screen (${fit.wide.join('; ')})`,
      );
    for (const s of fit.small) this.problems.push(`${name}: under ${TARGET} px: ${s}`);
  }

  done(pages: number): void {
    expect(this.pages, 'pages measured').toBe(pages);
    expect(this.problems).toEqual([]);
  }
}

/** A phone in a language; signed in as the demo account unless told otherwise. */
const phone = (lang: Lang, signedIn = true) =>
  // Charts drawn without their entry animation: measured as they end up.
  learnerPage(journey.browser, journey.app.origin, {
    lang,
    size: 'phone',
    token: signedIn ? token : undefined,
    reducedMotion: 'reduce',
  });

const filmLink = (page: Page) =>
  page.getByRole('link', { name: new RegExp(`${FILM.title}|${FILM.titleEn}`) }).first();

/** The film's id in part one (its list), as prptFilm gives part two's. */
async function prpoFilmId(): Promise<string> {
  const res = await fetch(`${journey.app.origin}/producer/active_relation_one/show_film_picture`, {
    method: 'POST',
    headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'page=1&pageSize=50',
  });
  const list = ((await res.json()) as { data: { list: { id: string; titleEn: string }[] } }).data.list;
  const film = list.find((f) => f.titleEn === FILM.titleEn);
  if (!film) throw new Error(`demo film ${FILM.titleEn} not in part one`);
  return film.id;
}

/** Posts a take of a line as the web client does (multipart to /ai/speech_emotion): the actor's own line. */
async function postTake(filmId: string, lineId: string, attempt: 1 | 2): Promise<void> {
  const { db, storage } = journey.app.server.app;
  const row = await db
    .selectFrom('subtitles')
    .select('reference_audio_key')
    .where('id', '=', lineId)
    .executeTakeFirstOrThrow();
  const form = new FormData();
  form.set('subtitlesId', lineId);
  form.set('filmId', filmId);
  form.set('attempt', String(attempt));
  form.set(
    'file',
    new Blob([await storage.get(row.reference_audio_key)], { type: 'audio/wav' }),
    `${lineId}.wav`,
  );
  const res = await fetch(`${journey.app.origin}/ai/speech_emotion`, {
    method: 'POST',
    headers: { token },
    body: form,
  });
  const body = (await res.json()) as { code: number; msg: string };
  if (body.code !== 200) throw new Error(`take of ${lineId} (${attempt}): ${body.code} ${body.msg}`);
}

/** Answers the film's questions on its answer page and lands on the result. */
async function answerAndResult(page: Page, part: 'prpo' | 'prpt', filmId: string, checks: Checks) {
  await page.goto(`${journey.app.origin}/${part}/answer/${filmId}`);
  await onPage(page, `${part}/answer`);
  await answerAll(page);
  await checks.check(page, `${part}-answer`);
  await page.locator('form button[type="submit"]').last().click();
  await onPage(page, `${part}/result`);
  await page.locator('[data-screen="result"] li:has(h3)').first().waitFor({ timeout: 60_000 });
  await checks.check(page, `${part}-result`);
}

describe.each(['en', 'zh'] as const)('points 14 and 15: every page at 390×844 (%s)', (lang) => {
  test('signed out: standby, introduction, login and the phone sign-in page fit the screen, every control 44 px', {
    timeout: 180_000,
  }, async () => {
    const checks = new Checks(lang);
    const { context, page, errors } = await phone(lang, false);
    const codesAsked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/site_products/qr_url')) codesAsked.push(r.url());
    });
    try {
      for (const part of ['prpo', 'prpt'] as const) {
        for (const screen of ['standby', 'intro', 'login'] as const) {
          codesAsked.length = 0;
          await page.goto(`${journey.app.origin}/${part}/${screen}`);
          await onPage(page, `${part}/${screen}`);
          if (screen === 'login') {
            await page.locator('form input[type="password"]').waitFor();
            // A phone cannot scan its own screen, so the QR card is not offered there.
            expect(await page.getByTestId('qr-steps').isVisible(), 'the QR card on a phone').toBe(false);
          }
          await checks.check(page, `${part}-${screen}`);
          // Nor is a code asked for. The page would have asked in its first effects, before the
          // photographs above were taken.
          if (screen === 'login') expect(codesAsked, 'QR code requests from a phone').toEqual([]);
        }
      }
      // The page a phone opens from the kiosk's code, in the kiosk's language.
      const res = await fetch(`${journey.app.origin}/producer/site_products/qr_url`, {
        headers: { 'accept-language': lang },
      });
      const link = ((await res.json()) as { data: { url: string } }).data.url;
      const url = new URL(link);
      await page.goto(`${journey.app.origin}${url.pathname}${url.search}`);
      await page.locator('form').first().waitFor();
      await checks.check(page, 'qr-confirm');
      // The share page below and this one switch language with a link: the other language's page.
      const other: Lang = lang === 'zh' ? 'en' : 'zh';
      await page.getByRole('navigation').getByRole('link', { name: NAMES[other] }).click();
      await page.locator(`html[lang="${other === 'zh' ? 'zh-CN' : 'en'}"]`).waitFor();
      expect(await page.locator('h1').textContent()).toBe(STATEMENTS[other]['qr.heading']);
      expect(new URL(page.url()).searchParams.get('uuid')).toBe(url.searchParams.get('uuid'));
      checks.done(7);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('part one: home, films, cinema, questions, result and report', { timeout: 240_000 }, async () => {
    const checks = new Checks(lang);
    const { context, page, errors } = await phone(lang);
    try {
      const filmId = await prpoFilmId();
      await page.goto(`${journey.app.origin}/prpo`);
      await onPage(page, 'prpo/home');
      await checks.check(page, 'prpo-home');
      await page.goto(`${journey.app.origin}/prpo/movies`);
      await onPage(page, 'prpo/movies');
      await filmLink(page).waitFor();
      await checks.check(page, 'prpo-movies');
      await page.goto(`${journey.app.origin}/prpo/cinema/${filmId}`);
      await onPage(page, 'prpo/cinema');
      await page.locator('video').waitFor();
      await checks.check(page, 'prpo-cinema');
      await answerAndResult(page, 'prpo', filmId, checks);
      await page.locator('[data-screen="result"] a[href*="/prpo/report/"]').first().click();
      await onPage(page, 'prpo/report');
      await page.getByTestId('report-h5-link').waitFor({ timeout: 60_000 });
      await checks.check(page, 'prpo-report');
      await page.goto((await page.getByTestId('report-h5-link').getAttribute('href')) as string);
      await page.locator('main h1').waitFor();
      await checks.check(page, 'prpo-h5');
      checks.done(7);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('part two: home, films, cinema, questions, result, dub, voice tips, report and the share page', {
    timeout: 360_000,
  }, async () => {
    const checks = new Checks(lang);
    const { context, page, errors } = await phone(lang);
    try {
      const film = await prptFilm(journey.app.origin, token, FILM.titleEn);
      await page.goto(`${journey.app.origin}/prpt`);
      await onPage(page, 'prpt/home');
      await checks.check(page, 'prpt-home');
      await page.goto(`${journey.app.origin}/prpt/movies`);
      await onPage(page, 'prpt/movies');
      await filmLink(page).waitFor();
      await checks.check(page, 'prpt-movies');
      await page.goto(`${journey.app.origin}/prpt/cinema/${film.id}`);
      await onPage(page, 'prpt/cinema');
      await page.locator('video').waitFor();
      await checks.check(page, 'prpt-cinema');
      await answerAndResult(page, 'prpt', film.id, checks);
      // Two lines dubbed, the first twice: scores, the retake and the line three ways are on the pages.
      await postTake(film.id, film.lines[0].id, 1);
      await postTake(film.id, film.lines[0].id, 2);
      await postTake(film.id, film.lines[1].id, 1);
      await page.goto(`${journey.app.origin}/prpt/dub/${film.id}`);
      await onPage(page, 'prpt/dub');
      await page.getByTestId('dub-scene-take').waitFor({ timeout: 30_000 });
      await page
        .locator(`[data-testid="line-${film.lines[0].id}"] [data-take="2"]`)
        .waitFor({ timeout: 60_000 });
      await checks.check(page, 'prpt-dub');
      // Point 17: the line's sub-score radar draws every axis name inside its canvas.
      await page.getByTestId(`details-${film.lines[0].id}`).click();
      const figure = page.locator('figure', { hasText: TEXT[lang]['score.radar'] });
      await figure.scrollIntoViewIfNeeded();
      const radar = figure.locator('canvas');
      await radar.waitFor({ timeout: 60_000 });
      const inkOf = () => radar.evaluate(canvasInk);
      await expect.poll(async () => (await inkOf()).inside, { timeout: 30_000 }).toBeGreaterThan(0);
      await figure.screenshot({ path: path.join(OUT, `prpt-dub-radar-${lang}.png`), animations: 'disabled' });
      expect((await inkOf()).edges, 'ink on the canvas edges: an axis name cut off').toBe(0);
      await page.goto(`${journey.app.origin}/prpt/soundSuggest/${film.id}`);
      await onPage(page, 'prpt/sound-suggest');
      await page.locator('[data-screen="sound-suggest"] h2').first().waitFor({ timeout: 60_000 });
      await checks.check(page, 'prpt-sound-suggest');
      await page.goto(`${journey.app.origin}/prpt/report`);
      await onPage(page, 'prpt/report');
      await page.getByTestId('report-h5-link').waitFor({ timeout: 60_000 });
      await page.getByTestId('run-history').waitFor({ timeout: 60_000 });
      // The dubbed video is made on the server; the report offers it once it is there.
      await page.getByTestId('dub-video-download').waitFor({ timeout: 180_000 });
      await checks.check(page, 'prpt-report');
      // The check opened every line's "three ways": measured again with their buttons in.
      await page.getByTestId('melody-versions').first().waitFor();
      await checks.check(page, 'prpt-report-lines-open');
      await page.goto((await page.getByTestId('report-h5-link').getAttribute('href')) as string);
      await page.locator('main h1').waitFor();
      await checks.check(page, 'prpt-h5');
      // Point 19: the share page has a language switch; it works under the page's policy (no script).
      const other: Lang = lang === 'zh' ? 'en' : 'zh';
      await page.getByRole('navigation').getByRole('link', { name: NAMES[other] }).click();
      await page.locator(`html[lang="${other === 'zh' ? 'zh-CN' : 'en'}"]`).waitFor();
      await page.getByText(STATEMENTS[other]['h5.answers'], { exact: true }).waitFor();
      checks.done(10);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('point 19: QR sign-in', () => {
  test("the kiosk says in steps what scanning does; the phone's page speaks the kiosk's language, names the product, and its stay-signed-in box is one target with its words", {
    timeout: 120_000,
  }, async () => {
    // A kiosk whose learner chose English, and a phone set to Chinese.
    const kiosk = await journey.browser.newContext({ viewport: KIOSK, locale: 'zh-CN' });
    const { context: phoneContext, page: phonePage, errors } = await phone('zh', false);
    try {
      await kiosk.addInitScript(
        "localStorage.setItem('app.lang', 'en'); window.__APP_CONFIG__ = { kioskIdleMs: 0 };",
      );
      const page = await kiosk.newPage();
      const qrAnswer = page.waitForResponse((r) => r.url().includes('/site_products/qr_url'));
      await page.goto(`${journey.app.origin}/prpt/login`);
      await onPage(page, 'prpt/login');
      const link = await qrLinkFrom(await qrAnswer);
      await page.locator('[data-qr-phase="waiting"]').waitFor();
      const steps = page.getByTestId('qr-steps');
      expect(await steps.isVisible(), 'the steps beside the code').toBe(true);
      expect(await steps.locator('li').allTextContents()).toEqual([
        firstEn['signin.qr.step1'],
        firstEn['signin.qr.step2'],
        firstEn['signin.qr.step3'],
      ]);

      await phonePage.goto(link);
      await phonePage.getByRole('heading', { level: 1, name: statementsEn['qr.heading'] }).waitFor();
      expect(await phonePage.locator('html').getAttribute('lang'), "the kiosk's language").toBe('en');
      expect(await phonePage.locator('header').textContent()).toContain(firstEn['app.name']);
      expect(await phonePage.locator('main').textContent()).toContain(
        statementsEn['qr.explain'].replace('{product}', firstEn['app.name']),
      );
      // "Stay signed in": the box and its words are one label, a finger-sized target, and pressing
      // the words ticks the box.
      const keep = phonePage.getByRole('checkbox', { name: statementsEn['qr.keepSignedIn'] });
      const label = phonePage.locator('label', { has: keep });
      const b = await label.evaluate((e) => e.getBoundingClientRect().toJSON() as { height: number });
      expect(b.height).toBeGreaterThanOrEqual(TARGET);
      await label.getByText(statementsEn['qr.keepSignedIn']).click();
      expect(await keep.isChecked()).toBe(true);

      // The kiosk follows: the code was scanned, and it says what to do next.
      await page.locator('[data-qr-phase="scanned"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-qr-phase="scanned"]').textContent()).toBe(
        firstEn['signin.qr.scanned'],
      );
      expect(errors).toEqual([]);
    } finally {
      await phoneContext.close();
      await kiosk.close();
    }
  });
});
