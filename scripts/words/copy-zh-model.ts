/**
 * Copies the Mandarin word check's model (server/words/zh/model, docs/words.md, "Mandarin") from a local copy of
 * sherpa-onnx-kws-zipformer-wenetspeech-3.3M-2024-01-01-mobile into the repository: the int8 encoder and
 * joiner, the decoder and the token list, under the short names the engine opens, plus the Apache-2.0
 * text. Nothing is fetched; the product never downloads a model at run time.
 *
 *   npx tsx scripts/words/copy-zh-model.ts [<model folder>]   (default ../shared/models/kws-zh-wenetspeech-3.3M-mobile)
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { MODEL_FILES } from '../../server/words/zh/model-files';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const from = path.resolve(
  process.argv[2] ?? path.join(repoRoot, '../shared/models/kws-zh-wenetspeech-3.3M-mobile'),
);
const to = path.join(repoRoot, 'server/words/zh/model');
const LICENCE = '/usr/share/common-licenses/Apache-2.0';

/** The file names in the published model folder, keyed by the names the engine opens. */
const UPSTREAM: Record<keyof typeof MODEL_FILES, string> = {
  encoder: 'encoder-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
  decoder: 'decoder-epoch-12-avg-2-chunk-16-left-64.onnx',
  joiner: 'joiner-epoch-12-avg-2-chunk-16-left-64.int8.onnx',
  tokens: 'tokens.txt',
};

mkdirSync(to, { recursive: true });
for (const [key, name] of Object.entries(MODEL_FILES) as [keyof typeof MODEL_FILES, string][]) {
  const source = path.join(from, UPSTREAM[key]);
  if (!existsSync(source))
    throw new Error(`${source} is missing: pass the model folder as the first argument`);
  // The shared copy is read-only and copyFileSync keeps the mode: replace, then make it writable again.
  rmSync(path.join(to, name), { force: true });
  copyFileSync(source, path.join(to, name));
  chmodSync(path.join(to, name), 0o644);
  const sha = createHash('sha256').update(readFileSync(source)).digest('hex');
  console.log(`${name}  ${statSync(source).size} bytes  sha256 ${sha}  (from ${UPSTREAM[key]})`);
}
if (existsSync(LICENCE)) copyFileSync(LICENCE, path.join(to, 'LICENSE'));
else console.warn(`${LICENCE} not found: keep the existing server/words/zh/model/LICENSE (Apache-2.0 text)`);
