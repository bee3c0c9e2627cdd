import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDb } from '../../server/db/connect';
import { makeFilmFolder } from './support/film-fixture';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-cli-'));

function run(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'server/cli', script), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('command-line tools (SQLite)', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('users:add creates an account and refuses a duplicate', async () => {
    const ok = await run('users-add.ts', ['erin', 'erin-pass', '小艾']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Created account "erin" (nickname 小艾');
    const dup = await run('users-add.ts', ['erin', 'erin-pass']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    const usage = await run('users-add.ts', []);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage');
  });

  it('films:import imports good folders, names the problem in bad ones and exits 1', async () => {
    const good = await makeFilmFolder('cli-film');
    const bad = await makeFilmFolder('cli-bad', (m) => {
      m.lines = m.lines.slice(0, 1);
    });
    const res = await run('films-import.ts', [good, bad]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Imported "cli-film" (测试影片): 3 lines, 3 questions');
    // The folder has no background track: the output says one was derived, and how.
    expect(res.stdout).toContain(
      'background: derived from the original audio, ducked 30 dB inside 3 subtitle windows (no background.m4a or background.wav in the folder)',
    );
    expect(res.stderr).toContain(`Not imported: ${path.join(bad, 'film.json')}: lines has 1 entries`);
    const { db } = connectDb({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    try {
      const films = await db.selectFrom('films').select('id').execute();
      expect(films.map((f) => f.id)).toEqual(['cli-film']);
    } finally {
      await db.destroy();
    }
  });
});
