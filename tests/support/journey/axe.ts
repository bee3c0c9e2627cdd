import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const AXE = path.resolve(import.meta.dirname, '../../../node_modules/axe-core/axe.min.js');

/**
 * Puts axe-core in the page. Evaluated through the DevTools protocol rather than added as a script
 * tag: the pages' Content-Security-Policy refuses inline scripts, and a test tool must not need a
 * hole in it.
 */
export async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate<boolean>("typeof window.axe === 'object'")) return;
  await page.evaluate(fs.readFileSync(AXE, 'utf8'));
}

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** One violation as a reviewer reads it: rule, impact, help, and each offending element with why. */
export function formatViolation(v: AxeViolation): string {
  const nodes = v.nodes
    .slice(0, 8)
    .map(
      (n) =>
        `    - ${n.target.join(' ')}\n      ${n.html.slice(0, 160)}\n      ${(n.failureSummary ?? '').replace(/\n/g, ' | ')}`,
    )
    .join('\n');
  const more = v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : '';
  return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A/AA and best practices) and returns the serious and
 * critical violations; minor and moderate ones are returned separately for the report, not failed on.
 */
export async function scanA11y(page: Page): Promise<{ blocking: AxeViolation[]; other: AxeViolation[] }> {
  await injectAxe(page);
  // A string, not a function: this folder is type-checked for Node, without the DOM lib.
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    })))`,
  );
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return { blocking, other: violations.filter((v) => !blocking.includes(v)) };
}
