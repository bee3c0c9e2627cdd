import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForExpression } from '../browser';
import { onPage } from './contexts';
import type { ScreenChecks } from './screens';
import { zhText } from './text';

/** The demo film that is in both parts and that the fake microphone's take was recorded against. */
export const FILM = { title: '冰箱上的抹布', titleEn: 'The Rag on the Fridge' } as const;

/** Opens the film from the movies shelf (the whole poster card is one link). */
export async function openFilm(page: Page): Promise<void> {
  await page.getByRole('link', { name: new RegExp(FILM.title) }).click();
}

/** Starts the clip with the player's own button and waits until it really plays (time advances). */
export async function playAndSeeItAdvance(page: Page): Promise<{ from: number; to: number }> {
  const video = page.getByLabel(zhText('cinema.videoLabel', { title: FILM.title }));
  await video.waitFor();
  await waitForExpression(page, "document.querySelector('video')?.readyState >= 2", 60_000);
  await page.getByRole('button', { name: zhText('cinema.play'), exact: true }).click();
  const from = await page.evaluate<number>("document.querySelector('video').currentTime");
  await waitForExpression(
    page,
    `(() => { const v = document.querySelector('video'); return v && !v.paused && v.currentTime > ${from} + 1; })()`,
    60_000,
  );
  const to = await page.evaluate<number>("document.querySelector('video').currentTime");
  await page.getByRole('button', { name: zhText('cinema.pause'), exact: true }).click();
  return { from, to };
}

/**
 * Answers every question on the answer page: the first option of a single choice, the first two of a
 * multiple choice, a sentence for open text. Returns how many questions there were.
 */
export async function answerAll(page: Page): Promise<number> {
  const questions = page.locator('form fieldset');
  await questions.first().waitFor();
  const n = await questions.count();
  for (let i = 0; i < n; i++) {
    const q = questions.nth(i);
    const text = q.locator('textarea');
    if (await text.count()) {
      await text.fill('她的声音越来越高、越来越紧，说明她在压着火。');
      continue;
    }
    const radios = q.locator('input[type=radio]');
    if (await radios.count()) {
      await radios.first().check();
      continue;
    }
    const boxes = q.locator('input[type=checkbox]');
    await boxes.nth(0).check();
    if ((await boxes.count()) > 1) await boxes.nth(1).check();
  }
  return n;
}

/**
 * The part of every journey between opening a film and its result: the clip plays in the cinema, every
 * question is answered (progress follows), the answers are saved, and the result gives one feedback
 * item per question. Returns the film id (from the cinema URL) and the number of questions.
 */
export async function watchAnswerAndSeeResult(
  page: Page,
  part: 'prpo' | 'prpt',
  checks: ScreenChecks,
): Promise<{ filmId: string; questions: number }> {
  await onPage(page, `${part}/cinema`);
  await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
  const filmId = new URL(page.url()).pathname.split('/').at(-1) as string;
  const played = await playAndSeeItAdvance(page);
  expect(played.to).toBeGreaterThan(played.from + 1);
  await checks.check(page, 'cinema');
  await page
    .getByRole('link', { name: zhText('cinema.toQuestions') })
    .first()
    .click();

  await onPage(page, `${part}/answer`);
  const questions = await answerAll(page);
  expect(questions).toBeGreaterThan(0);
  await expect
    .poll(() => page.getByRole('progressbar').getAttribute('aria-valuenow'))
    .toBe(String(questions));
  await checks.check(page, 'answer');
  await page.getByRole('button', { name: zhText('answer.submit') }).click();

  await onPage(page, `${part}/result`);
  await page.getByText(zhText('result.score'), { exact: true }).waitFor();
  expect(await page.locator('[data-screen="result"] li:has(h3)').count()).toBe(questions);
  await checks.check(page, 'result');
  return { filmId, questions };
}
