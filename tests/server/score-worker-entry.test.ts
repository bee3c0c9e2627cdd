import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SCORE_WORKER_FILE } from '../../server/ai/pool';

const run = promisify(execFile);

describe('scoring worker entry', () => {
  // piscina require()s its worker file first; an ES module there goes through require(esm), which can
  // abort the process on Node 20 and 22. With require(esm) switched off, an ES module entry throws
  // ERR_REQUIRE_ESM here, so this fails for any entry that would take that path.
  it('loads through require() without require(esm), exposing both jobs', async () => {
    const file = fileURLToPath(SCORE_WORKER_FILE);
    const probe = `const m = require(${JSON.stringify(file)});
      process.stdout.write(JSON.stringify([typeof m, typeof m.readReferencesJob]));`;
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', '-e', probe]);
    expect(JSON.parse(stdout)).toEqual(['function', 'function']);
  });
});
