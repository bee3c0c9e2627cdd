import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { speechScore } from '../../src/api/contract';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIX = path.join(ROOT, 'tests/fixtures/emodb');

/** Runs `npm run analyze -- …` the way a person would (same entry, through tsx). */
function analyze(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/analyze.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each case starts a fresh tsx process (a few seconds of compilation on a busy machine).
describe('npm run analyze', { timeout: 90_000 }, () => {
  it('prints a contract-valid result for a take against a reference with a target', () => {
    const r = analyze(
      path.join(FIX, '15a01La.wav'),
      '--reference',
      path.join(FIX, '15a01Wa.wav'),
      '--target',
      'anger',
    );
    expect(r.code, r.stderr).toBe(0);
    const score = speechScore.parse(JSON.parse(r.stdout));
    expect(score.emotion).toMatchObject({ target: 'anger', targetSource: 'annotated' });
    expect(score.prosody.actor).not.toBeNull();
    expect(score.statements?.length).toBeGreaterThanOrEqual(2);
  });

  it('scores a take alone without a reference', () => {
    const r = analyze(path.join(FIX, '15a07Fb.wav'));
    expect(r.code, r.stderr).toBe(0);
    const score = speechScore.parse(JSON.parse(r.stdout));
    expect(score.prosody.actor).toBeNull();
    expect(score.emotion.targetSource).toBe('none');
  });

  it('refuses a file that is not a wav with the service message, and an unknown target', () => {
    const junk = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'analyze-')), 'junk.wav');
    fs.writeFileSync(junk, 'not audio at all');
    const bad = analyze(junk);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('不是 WAV');
    const target = analyze(path.join(FIX, '15a07Fb.wav'), '--target', 'joy');
    expect(target.code).toBe(1);
    expect(target.stderr).toContain('unknown --target "joy"');
    fs.rmSync(path.dirname(junk), { recursive: true, force: true });
  });
});
