import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, waitForExpression } from '../support/browser';
import { injectAxe } from '../support/journey/axe';
import { loginByPassword } from '../support/journey/login';
import { startTestServer, type TestServer } from '../support/server';

// Walks every screen (except dub, which needs a microphone and has its own test) in real Chromium at
// kiosk and phone size, writes a PNG of each under test-results/screens/, and fails on serious or
// critical axe-core violations. The PNGs are for people: look at them after a design change.
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, 'test-results/screens');
const SIZES = { kiosk: { width: 1920, height: 1080 }, phone: { width: 390, height: 844 } } as const;

let dist: string;
let server: TestServer;
let browser: Browser;

/** One test's own browser context and what its pages reported; every test starts from a fresh one. */
interface Walk {
  page: Page;
  errors: string[];
  violations: string[];
  shots: number;
}

async function shoot(walk: Walk, name: string) {
  const { page, violations } = walk;
  walk.shots++;
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await page.screenshot({
      path: path.join(OUT, `${name}-${size}.png`),
      fullPage: true,
      animations: 'disabled',
    });
    await injectAxe(page);
    const found = await page.evaluate<Array<{ id: string; impact: string; nodes: string[] }>>(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
    );
    for (const v of found)
      violations.push(`${name} (${size}): [${v.impact}] ${v.id} at ${v.nodes.join(', ')}`);
  }
  await page.setViewportSize(SIZES.kiosk);
}

async function open({ page }: Walk, url: string, screen: string) {
  await page.goto(server.url + url);
  await page.locator(`[data-screen="${screen}"]`).first().waitFor({ timeout: 20_000 });
}

/**
 * Runs one walk in its own context; it fails on script errors and on serious or critical axe
 * violations of any screen it photographed, and it must have photographed something.
 */
async function walk(run: (w: Walk) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: SIZES.kiosk, locale: 'zh-CN' });
  const w: Walk = { page: await context.newPage(), errors: [], violations: [], shots: 0 };
  w.page.on('pageerror', (e) => w.errors.push(String(e)));
  try {
    await run(w);
    expect(w.shots, 'screens photographed and scanned').toBeGreaterThan(0);
    expect(w.errors, 'script errors').toEqual([]);
    expect(w.violations, 'serious or critical accessibility violations').toEqual([]);
  } finally {
    await context.close();
  }
}

beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  dist = await mkdtemp(path.join(os.tmpdir(), 'screens-build-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  server = await startTestServer({ seedDemo: true, importDemo: true, spaRoot: dist });
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe('every screen at kiosk and phone size', () => {
  test('public screens: standby, intro, login, prpt home, 404', () =>
    walk(async (w) => {
      const { page } = w;
      await open(w, '/prpt/standby', 'standby');
      await shoot(w, 'prpt-standby');
      await open(w, '/prpo/intro', 'intro');
      await shoot(w, 'prpo-intro');
      await open(w, '/prpt/login', 'login');
      await page.locator('[data-qr-phase="waiting"]').waitFor({ timeout: 20_000 });
      await shoot(w, 'prpt-login');
      await open(w, '/prpt', 'home');
      await shoot(w, 'prpt-home-guest');
      await open(w, '/no/such/page', 'not-found');
      await shoot(w, 'not-found');
    }));

  test('part one: password login → movies → cinema → answer → result → report', () =>
    walk(async (w) => {
      const { page } = w;
      await open(w, '/prpo/login?redirect=%2Fprpo%2Fmovies', 'login');
      // Inline validation first: an empty submit names both fields.
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.getByText('请输入账号', { exact: true }).last().waitFor();
      await page.getByRole('textbox', { name: '账号' }).fill('demo');
      await page.getByRole('textbox', { name: '密码' }).fill('demo123456');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.locator('[data-screen="movies"]').waitFor();
      await page.locator('[data-screen="movies"] ul a').first().waitFor();
      await shoot(w, 'prpo-movies');
      await page.locator('[data-screen="movies"] ul a').first().click();
      await page.locator('[data-screen="cinema"] video').waitFor();
      await page.getByRole('button', { name: '播放' }).click();
      await waitForExpression(page, "document.querySelector('video').currentTime > 0.5", 20_000);
      await shoot(w, 'prpo-cinema');
      await page.getByRole('link', { name: '去答题' }).first().click();
      await page.locator('[data-screen="answer"] form').waitFor();
      await page.getByRole('button', { name: '提交答案' }).click();
      expect(await page.getByRole('alert').first().textContent()).toMatch(/道必答题没有回答/);
      await shoot(w, 'prpo-answer-invalid');
      for (const group of await page.locator('form fieldset').all()) {
        const textarea = group.locator('textarea');
        if (await textarea.count()) await textarea.fill('他在掩饰自己的紧张。');
        else await group.locator('input').first().check();
      }
      await page.getByRole('button', { name: '提交答案' }).click();
      await page.locator('[data-screen="result"]').waitFor();
      await shoot(w, 'prpo-result');
      await page.getByRole('link', { name: '查看训练报告' }).first().click();
      await page.locator('[data-screen="report"] h1').waitFor();
      await page.getByTestId('report-h5-link').waitFor({ timeout: 20_000 });
      // Chosen options are named by their labels in the report's answer list.
      await page.locator('[data-screen="report"] li', { hasText: '你的答案' }).nth(3).waitFor();
      await shoot(w, 'prpo-report');
      // Print: light paper, no header, buttons or toasts; the QR code stays.
      await page.emulateMedia({ media: 'print' });
      await page.screenshot({ path: path.join(OUT, 'prpo-report-print.png'), fullPage: true });
      expect(await page.locator('.layout-header').isVisible()).toBe(false);
      expect(await page.getByRole('img', { name: '报告链接二维码' }).isVisible()).toBe(true);
      await page.emulateMedia({ media: 'screen' });
      await open(w, '/prpo', 'home');
      await shoot(w, 'prpo-home');
    }));

  test('part two: movies, cinema, answer, result, sound suggestion and report screens', () =>
    walk(async (w) => {
      const { page } = w;
      // Its own login: the walk does not depend on another test's session.
      await open(w, '/prpt/login?redirect=%2Fprpt%2Fmovies', 'login');
      await loginByPassword(page);
      await page.locator('[data-screen="movies"]').waitFor();
      await page.locator('[data-screen="movies"] ul a').first().waitFor();
      await shoot(w, 'prpt-movies');
      await page.locator('[data-screen="movies"] ul a').first().click();
      await page.locator('[data-screen="cinema"] video').waitFor();
      await page.getByRole('link', { name: '去答题' }).first().click();
      await page.locator('[data-screen="answer"] form').waitFor();
      for (const group of await page.locator('form fieldset').all()) {
        const textarea = group.locator('textarea');
        if (await textarea.count()) await textarea.fill('语气越来越急。');
        else await group.locator('input').first().check();
      }
      // A reload keeps every answer (session draft).
      await page.reload();
      await page.getByText('已恢复你上次填写的答案').waitFor();
      await page.getByRole('button', { name: '提交答案' }).click();
      await page.locator('[data-screen="result"]').waitFor();
      await shoot(w, 'prpt-result');
      const dubHref = await page.getByRole('link', { name: '开始配音' }).first().getAttribute('href');
      const filmId = String(dubHref).split('/').pop();
      await open(w, `/prpt/soundSuggest/${filmId}`, 'sound-suggest');
      await shoot(w, 'prpt-sound-suggest');
      await open(w, '/prpt/report', 'report');
      await page.locator('[data-screen="report"] h1').waitFor();
      await shoot(w, 'prpt-report');
      await open(w, '/prpt/intro', 'intro');
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { level: 1, name: 'Film dubbing' }).waitFor();
      await shoot(w, 'prpt-intro-en');
    }));
});
