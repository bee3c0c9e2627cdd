import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

// Walks every screen (except dub, which needs a microphone and has its own test) in real Chromium at
// kiosk and phone size, writes a PNG of each under test-results/screens/, and fails on serious or
// critical axe-core violations. The PNGs are for people: look at them after a design change.
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, 'test-results/screens');
const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');
const SIZES = { kiosk: { width: 1920, height: 1080 }, phone: { width: 390, height: 844 } } as const;

let dist: string;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const violations: string[] = [];

async function shoot(name: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await page.screenshot({
      path: path.join(OUT, `${name}-${size}.png`),
      fullPage: true,
      animations: 'disabled',
    });
    if (!(await page.evaluate<boolean>("typeof window.axe === 'object'")))
      await page.addScriptTag({ path: AXE });
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

async function open(url: string, screen: string) {
  await page.goto(server.url + url);
  await page.locator(`[data-screen="${screen}"]`).first().waitFor({ timeout: 20_000 });
}

beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  dist = await mkdtemp(path.join(os.tmpdir(), 'screens-build-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  server = await startTestServer({ seedDemo: true, importDemo: true, spaRoot: dist });
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  context = await browser.newContext({ viewport: SIZES.kiosk, locale: 'zh-CN' });
  page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe('every screen at kiosk and phone size', () => {
  test('public screens: standby, intro, login, prpt home, 404', async () => {
    await open('/prpt/standby', 'standby');
    await shoot('prpt-standby');
    await open('/prpo/intro', 'intro');
    await shoot('prpo-intro');
    await open('/prpt/login', 'login');
    await page.locator('[data-qr-phase="waiting"]').waitFor({ timeout: 20_000 });
    await shoot('prpt-login');
    await open('/prpt', 'home');
    await shoot('prpt-home-guest');
    await open('/no/such/page', 'not-found');
    await shoot('not-found');
  });

  test('part one: password login → movies → cinema → answer → result → report', async () => {
    await open('/prpo/login?redirect=%2Fprpo%2Fmovies', 'login');
    // Inline validation first: an empty submit names both fields.
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('请输入账号', { exact: true }).last().waitFor();
    await page.getByRole('textbox', { name: '账号' }).fill('demo');
    await page.getByRole('textbox', { name: '密码' }).fill('demo123456');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('[data-screen="movies"]').waitFor();
    await page.locator('[data-screen="movies"] ul a').first().waitFor();
    await shoot('prpo-movies');
    await page.locator('[data-screen="movies"] ul a').first().click();
    await page.locator('[data-screen="cinema"] video').waitFor();
    await page.getByRole('button', { name: '播放' }).click();
    await page.waitForFunction("document.querySelector('video').currentTime > 0.5", undefined, {
      timeout: 20_000,
    });
    await shoot('prpo-cinema');
    await page.getByRole('link', { name: '去答题' }).first().click();
    await page.locator('[data-screen="answer"] form').waitFor();
    await page.getByRole('button', { name: '提交答案' }).click();
    expect(await page.getByRole('alert').first().textContent()).toMatch(/道必答题没有回答/);
    await shoot('prpo-answer-invalid');
    for (const group of await page.locator('form fieldset').all()) {
      const textarea = group.locator('textarea');
      if (await textarea.count()) await textarea.fill('他在掩饰自己的紧张。');
      else await group.locator('input').first().check();
    }
    await page.getByRole('button', { name: '提交答案' }).click();
    await page.locator('[data-screen="result"]').waitFor();
    await shoot('prpo-result');
    await page.getByRole('link', { name: '查看训练报告' }).first().click();
    await page.locator('[data-screen="report"] h1').waitFor();
    await page.getByTestId('report-h5-link').waitFor({ timeout: 20_000 });
    // Chosen options are named by their labels in the report's answer list.
    await page.locator('[data-screen="report"] li', { hasText: '你的答案' }).nth(3).waitFor();
    await shoot('prpo-report');
    // Print: light paper, no header, buttons or toasts; the QR code stays.
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: path.join(OUT, 'prpo-report-print.png'), fullPage: true });
    expect(await page.locator('.layout-header').isVisible()).toBe(false);
    expect(await page.getByRole('img', { name: '报告链接二维码' }).isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    await open('/prpo', 'home');
    await shoot('prpo-home');
  });

  test('part two: movies, cinema, answer, result, sound suggestion and report screens', async () => {
    await open('/prpt/movies', 'movies');
    await page.locator('[data-screen="movies"] ul a').first().waitFor();
    await shoot('prpt-movies');
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
    await shoot('prpt-result');
    const dubHref = await page.getByRole('link', { name: '开始配音' }).first().getAttribute('href');
    const filmId = String(dubHref).split('/').pop();
    await open(`/prpt/soundSuggest/${filmId}`, 'sound-suggest');
    await shoot('prpt-sound-suggest');
    await open('/prpt/report', 'report');
    await page.locator('[data-screen="report"] h1').waitFor();
    await shoot('prpt-report');
    await open('/prpt/intro', 'intro');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Film dubbing' }).waitFor();
    await shoot('prpt-intro-en');
  });

  test('no script errors and no serious or critical accessibility violations', () => {
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
  });
});
