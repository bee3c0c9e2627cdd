import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `<label>: N passed, N failed, N skipped`, after vitest's own summary,
 * so a CI that reads closing lines (not vitest's coloured table) sees how many tests ran.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else if (state === 'skipped') skipped += 1;
      }
    }
    const label = process.env.VITEST_SUMMARY_LABEL ?? 'vitest';
    process.stdout.write(`\n${label}: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
