import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type AxeViolation, formatViolation, scanA11y } from './axe';
import { KIOSK, PHONE } from './sizes';

export const SCREENS_DIR = path.resolve(import.meta.dirname, '../../../test-results/screens');

const SIZES = { kiosk: KIOSK, phone: PHONE } as const;

const SETTLE_ANIMATIONS = `Promise.all(
  document
    .getAnimations()
    .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
    .map((a) => a.finished.catch(() => undefined)),
)`;

/**
 * Per journey: every screen it visits is scanned with axe-core and photographed at kiosk and phone
 * size. Violations are collected rather than thrown at once, so one failing screen does not hide the
 * state of the screens after it; `assertAccessible()` fails the journey at the end with all of them.
 */
export class ScreenChecks {
  private readonly failures: string[] = [];
  readonly notes: string[] = [];
  readonly visited: string[] = [];

  constructor(private readonly journey: string) {
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
  }

  /** Scan and photograph the page as it is now at both sizes, then restore the size it had. */
  async check(page: Page, screen: string): Promise<void> {
    this.visited.push(screen);
    const original = page.viewportSize() ?? KIOSK;
    const seen = new Map<string, { v: AxeViolation; sizes: string[] }>();
    for (const [name, size] of Object.entries(SIZES)) {
      await page.setViewportSize(size);
      // Let the layout settle at the new size (two frames), and pending images decode.
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      // axe reads colours as painted: a button caught mid-transition (a variant change after a take)
      // measures an interpolated background. Wait for every finite running animation to end; endless
      // ones (spinners, pulses) never finish and are left alone.
      await page.evaluate(SETTLE_ANIMATIONS);
      await page.screenshot({
        path: path.join(SCREENS_DIR, `${this.journey}-${screen}-${name}.png`),
        fullPage: true,
        animations: 'disabled',
      });
      const { blocking, other } = await scanA11y(page);
      for (const v of blocking) {
        const key = `${v.id}`;
        const had = seen.get(key);
        if (had) had.sizes.push(name);
        else seen.set(key, { v, sizes: [name] });
      }
      for (const v of other) this.notes.push(`${screen} (${name}): [${v.impact}] ${v.id} ×${v.nodes.length}`);
    }
    await page.setViewportSize(original);
    for (const { v, sizes } of seen.values()) {
      this.failures.push(`${this.journey} / ${screen} (${sizes.join(', ')}):\n${formatViolation(v)}`);
    }
  }

  /** Throws with every serious or critical violation seen on any screen of the journey. */
  assertAccessible(): void {
    if (this.notes.length)
      console.info(`[${this.journey}] minor/moderate axe findings:\n  ${this.notes.join('\n  ')}`);
    if (this.failures.length) {
      throw new Error(
        `serious or critical accessibility violations on ${this.failures.length} screen rule(s):\n${this.failures.join('\n')}`,
      );
    }
  }
}
