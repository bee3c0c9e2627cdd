import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runStatus(preload: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...preload, '--import', 'tsx', path.join(ROOT, 'tests/server/support/words-zh-status-main.ts')],
      { cwd: ROOT },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('Mandarin word check without its runtime', () => {
  it('answers engine_missing and says what is missing and the one command that adds it', async () => {
    const run = await runStatus([
      '--require',
      path.join(ROOT, 'tests/server/support/hide-sherpa-native.cjs'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { status, check } = JSON.parse(run.stdout);
    expect(check).toEqual({ status: 'unchecked', reason: 'engine_missing', language: 'zh' });
    expect(status.ready).toBe(false);
    expect(status.text).toContain(
      `the sherpa-onnx runtime did not load (no native library for ${process.platform}-${process.arch})`,
    );
    expect(status.text).toContain('npm install --include=optional sherpa-onnx-node');
  });

  it('is on, and checks, in the same child process with the runtime in place', async () => {
    const run = await runStatus([]);
    expect(run.code).toBe(0);
    const { status, check } = JSON.parse(run.stdout);
    expect(status.ready).toBe(true);
    expect(status.text).toContain('Mandarin word check: on');
    expect(check.status).toBe('checked');
    expect(check.otherLine).toBe(true);
  });
});
