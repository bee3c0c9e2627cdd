import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { waitForExpression } from '../support/browser';
import { journeyForFile } from '../support/journey/app';
import { kioskPage, onPage, phonePage } from '../support/journey/contexts';
import { answerAll, FILM } from '../support/journey/flow';
import { loginByPassword } from '../support/journey/login';
import { ScreenChecks } from '../support/journey/screens';
import { zhText } from '../support/journey/text';
import { fakeMicArgs } from './recording-helpers';

// Journey 5: one film dubbed in two browser sessions. Each session answers (a new training run) and
// dubs one line. The second session's dub page starts clean, its report, result and dub page show
// the second run only (also in a third, fresh session), the first run stays readable from the
// history. Checked at kiosk and phone size in Chinese and English: the English dub page shows no
// Chinese apart from names, and on a phone the line being spoken stays in view during the take.
// Lean on purpose: one line per session, the questions answered without playing the clip.
const FILM_ID = 'rag-on-the-fridge';
/** Names the pages may show in any language: the demo learner's nickname, the switch's "中文". */
const NAMES = ['演示学员', '中文'];
const CJK = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]+/g;

const errors: string[] = [];

const journey = journeyForFile({ chromiumArgs: fakeMicArgs });

/** Chinese runs on the page apart from names (the learner, the language switch, the speakers). */
async function chineseOnPage(page: Page): Promise<string[]> {
  let text = (await page.locator('body').textContent()) ?? '';
  for (const n of NAMES) text = text.replaceAll(n, '');
  return text.match(CJK) ?? [];
}

async function setLanguage(page: Page, label: '中文' | 'English'): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).first().click();
  // The switch lands once the language's messages have loaded. A locator, not waitForFunction: the
  // server's CSP forbids the eval its polling needs.
  await page.locator(`html[lang^="${label === 'English' ? 'en' : 'zh'}"]`).waitFor({ state: 'attached' });
}

/** Logs in on a fresh browser session (its own cookies and storage) and answers the film's questions. */
async function newSessionAnswering(
  open: (b: Browser, e: string[]) => Promise<{ context: BrowserContext; page: Page }>,
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await open(journey.browser, errors);
  // Scoring on a loaded machine can outlast the kiosk's idle time; journey 4 covers that.
  await page.addInitScript('window.__APP_CONFIG__ = { kioskIdleMs: 900000 };');
  await page.goto(`${journey.app.origin}/prpt/answer/${FILM_ID}`);
  await onPage(page, 'prpt/login');
  await loginByPassword(page);
  await onPage(page, 'prpt/answer');
  await answerAll(page);
  const saved = page.waitForResponse((r) => r.url().includes('/save_question_record'));
  await page.getByRole('button', { name: zhText('answer.submit') }).click();
  expect((await (await saved).json()).code).toBe(200);
  await onPage(page, 'prpt/result');
  await page.getByText(zhText('result.score'), { exact: true }).waitFor();
  return { context, page };
}

/** Opens the dub page from the result and waits until the film's run has been read. */
async function toDubPage(page: Page): Promise<string[]> {
  const run = page.waitForResponse((r) => r.url().includes('/get_run?'));
  await page
    .getByRole('link', { name: zhText('result.toDub') })
    .first()
    .click();
  await onPage(page, 'prpt/dub');
  await run;
  await page.getByTestId('dub-scene-take').waitFor();
  await page.waitForFunction("document.querySelector('[data-testid=dub-video]')?.readyState >= 1");
  return (await page
    .locator('li[data-testid^="line-"]')
    .evaluateAll((els) =>
      els.map((e) => (e.getAttribute('data-testid') ?? '').slice('line-'.length)),
    )) as string[];
}

const stageOf = (page: Page, id: string) => page.getByTestId(`line-${id}`).getAttribute('data-stage');

/** Whether the element's box lies inside the viewport (top and bottom). */
const inView = (page: Page, selector: string) =>
  page.evaluate<boolean>(
    `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false;
      const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })()`,
  );

/** Records one line with its own button and waits for its score (the stored first or second JSON). */
async function recordLine(page: Page, id: string, during?: () => Promise<void>): Promise<void> {
  await page.getByTestId(`record-${id}`).click();
  await page
    .locator('[data-testid="dub-phase"][data-phase="recording"]')
    .waitFor({ state: 'attached', timeout: 60_000 });
  await during?.();
  await page
    .locator('[data-testid="dub-phase"][data-phase="idle"]')
    .waitFor({ state: 'attached', timeout: 120_000 });
  await expect.poll(() => stageOf(page, id), { timeout: 180_000 }).toBe('scored');
}

/** The line's latest score in the stored map, once it is written (after the score shows, sub-titles-scores.ts). */
async function overallIn(page: Page, id: string): Promise<number> {
  const entry = `(() => { const o = {}; for (let i = 0; i < sessionStorage.length; i++) { const k = sessionStorage.key(i); if (k.startsWith('prpt.subTitlesScores/')) o[k.slice(21)] = JSON.parse(sessionStorage.getItem(k)); } return o; })()[${JSON.stringify(id)}]`;
  await waitForExpression(page, `!!${entry}`, 60_000);
  return page.evaluate<number>(
    `(() => { const e = ${entry}; return JSON.parse(e.secondUserAudioJson ?? e.firstUserAudioJson).overall; })()`,
  );
}

describe('journey 5: the same film in two sessions', () => {
  test('the second session reads its own run on the dub page, result and report; the first stays in the history', {
    timeout: 900_000,
  }, async () => {
    const checks = new ScreenChecks('journey-5');

    // Session 1 (kiosk): answer, dub line 1.
    const s1 = await newSessionAnswering(kioskPage);
    const lines = await toDubPage(s1.page);
    expect(lines.length).toBeGreaterThan(2);
    const [line1, line2] = lines;
    // On the kiosk too the cue names the line being spoken, and its row is in view below the stage.
    await recordLine(s1.page, line1, async () => {
      await s1.page
        .locator(`[data-testid="line-prompt"][data-line="${line1}"][data-now="true"]`)
        .waitFor({ timeout: 60_000 });
      expect(await inView(s1.page, '[data-testid="line-prompt"]'), 'the cue is in view (kiosk)').toBe(true);
      await expect
        .poll(() => inView(s1.page, `[data-testid="line-${line1}"]`), { timeout: 10_000 })
        .toBe(true);
    });
    const score1 = Math.round(await overallIn(s1.page, line1));
    await s1.context.close();

    // Session 2 (phone): answering again starts a new run; its dub page starts clean.
    const s2 = await newSessionAnswering(phonePage);
    const page = s2.page;
    await toDubPage(page);
    for (const id of lines) expect(await stageOf(page, id), `line ${id} in the new run`).toBe('idle');
    await checks.check(page, 'dub-new-run');

    // Dub line 2 on the phone: the cue under the video names it, and its row is in view below.
    await page.getByTestId(`line-${line2}`).scrollIntoViewIfNeeded();
    await recordLine(page, line2, async () => {
      await page
        .locator(`[data-testid="line-prompt"][data-line="${line2}"][data-now="true"]`)
        .waitFor({ timeout: 60_000 });
      expect(await inView(page, '[data-testid="line-prompt"]'), 'the cue is in view').toBe(true);
      expect(await inView(page, '[data-testid="dub-video"]'), 'the video is in view').toBe(true);
      await expect.poll(() => inView(page, `[data-testid="line-${line2}"]`), { timeout: 10_000 }).toBe(true);
      await page.screenshot({ path: 'test-results/screens/journey-5-phone-during-take.png' });
    });
    const score2 = Math.round(await overallIn(page, line2));
    expect(await stageOf(page, line1)).toBe('idle');
    await checks.check(page, 'dub-scored');

    // English: the dub page carries no Chinese apart from names; the cue's translation is English.
    await setLanguage(page, 'English');
    await page.getByRole('heading', { level: 1, name: 'Dub' }).waitFor();
    await page.getByText(FILM.titleEn).first().waitFor();
    expect(await chineseOnPage(page)).toEqual([]);
    await checks.check(page, 'dub-en');

    // Voice tips, then the report of this film's run: line 2 only, in English.
    await page.getByTestId('dub-next').click();
    await onPage(page, 'prpt/sound-suggest');
    await page.locator('[data-screen="sound-suggest"] ol > li:has(p)').first().waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'See the report' }).first().click();
    await onPage(page, 'prpt/report');
    const dubbing = page.getByRole('region', { name: 'Dubbing', exact: true });
    await dubbing.waitFor({ timeout: 120_000 });
    // A line's row is headed by its text; a scored line's melody versions follow in a row of their own.
    const rows = dubbing.locator('tbody tr:has(th[scope=row])');
    await expect.poll(() => rows.count()).toBe(lines.length);
    expect(await rows.nth(0).textContent()).toContain('Not dubbed');
    expect(await rows.nth(1).textContent()).toContain(String(score2));
    // The emotion arc: the actor's line has figures for every line.
    const arc = page.getByRole('region', { name: 'Emotion arc' });
    await arc.locator('summary').click();
    const actorCells = await arc.locator('tbody tr td:nth-of-type(2)').allTextContents();
    expect(actorCells).toHaveLength(lines.length);
    for (const c of actorCells) expect(c.trim()).not.toBe('—');
    // The history: both runs of this film, newest first, this one marked.
    const history = page.getByRole('region', { name: 'Training history', exact: true });
    const runs = history.locator('tbody tr');
    expect(await runs.count()).toBeGreaterThanOrEqual(2);
    expect(await runs.nth(0).getAttribute('aria-current')).toBe('true');
    await checks.check(page, 'report-en');

    // The first run stays readable: its report shows line 1 scored and line 2 not dubbed.
    await runs.nth(1).getByRole('link').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('runId')).toBeTruthy();
    await page.getByRole('row').filter({ hasText: 'Not dubbed' }).first().waitFor({ timeout: 60_000 });
    const firstRows = page
      .getByRole('region', { name: 'Dubbing', exact: true })
      .locator('tbody tr:has(th[scope=row])');
    expect(await firstRows.nth(0).textContent()).toContain(String(score1));
    expect(await firstRows.nth(1).textContent()).toContain('Not dubbed');
    await checks.check(page, 'report-first-run-en');
    await s2.context.close();

    // Session 3 (kiosk, fresh storage): result, dub page and report all show the second run.
    const { context, page: k } = await kioskPage(journey.browser, errors);
    await k.addInitScript('window.__APP_CONFIG__ = { kioskIdleMs: 900000 };');
    await k.goto(`${journey.app.origin}/prpt/result`);
    await onPage(k, 'prpt/login');
    await loginByPassword(k);
    await onPage(k, 'prpt/result');
    await k.getByText(zhText('result.score'), { exact: true }).waitFor();
    expect(await k.getByText(zhText('result.empty')).count()).toBe(0);
    await checks.check(k, 'result-new-session');
    await toDubPage(k);
    await expect.poll(() => stageOf(k, line2)).toBe('scored');
    expect(await stageOf(k, line1)).toBe('idle');
    await k
      .getByTestId(`line-${line2}`)
      .getByRole('img', { name: new RegExp(`^第一次 ${score2}`) })
      .waitFor();
    await checks.check(k, 'dub-new-session');
    await k.goto(`${journey.app.origin}/prpt/report`);
    await onPage(k, 'prpt/report');
    const kd = k.getByRole('region', { name: zhText('report.dubbing'), exact: true });
    await kd.waitFor({ timeout: 120_000 });
    await k
      .getByText(zhText('report.scoredLines', { done: 1, total: lines.length }))
      .first()
      .waitFor();
    await checks.check(k, 'report-new-session');
    await setLanguage(k, 'English');
    await k.goto(`${journey.app.origin}/prpt/dub/${FILM_ID}`);
    await onPage(k, 'prpt/dub');
    await k.getByRole('heading', { level: 1, name: 'Dub' }).waitFor();
    await expect.poll(() => stageOf(k, line2)).toBe('scored');
    expect(await chineseOnPage(k)).toEqual([]);
    await checks.check(k, 'dub-new-session-en');
    // The result of the second run in English (the open answer is the learner's own Chinese text).
    await k.goto(`${journey.app.origin}/prpt/result`);
    await onPage(k, 'prpt/result');
    await k.getByText('Score', { exact: true }).waitFor();
    await k.getByText(FILM.titleEn).first().waitFor();
    await checks.check(k, 'result-new-session-en');
    await context.close();

    expect(errors).toEqual([]);
    checks.assertAccessible();
  });
});
