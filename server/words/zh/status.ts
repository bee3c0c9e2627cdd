/**
 * Whether this server can check Mandarin words, in one line the start-up log can print: what is missing
 * and the one command that adds it (docs/words.md, "Mandarin"). Loads the native runtime once to find out.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRuntime, missingModelFiles } from './recogniser';
import { MODEL_DIR } from './model-files';

export interface WordCheckStatus {
  ready: boolean;
  text: string;
}

let known: WordCheckStatus | null = null;

export function mandarinWordCheckStatus(): WordCheckStatus {
  if (known) return known;
  const dir = path.relative(process.cwd(), fileURLToPath(MODEL_DIR)) || '.';
  const missing = missingModelFiles();
  if (missing.length) {
    known = {
      ready: false,
      text: `Mandarin word check: off, model files missing in ${dir} (${missing.join(', ')}); restore them with: git checkout -- server/words/zh/model`,
    };
    return known;
  }
  try {
    loadRuntime();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // sherpa-onnx-node says "Could not find sherpa-onnx-node. Tried …" when its per-platform package is absent.
    const why = /could not find sherpa-onnx-node/i.test(message)
      ? `no native library for ${os.platform()}-${os.arch()}`
      : message.split('\n')[0];
    known = {
      ready: false,
      text: `Mandarin word check: off, the sherpa-onnx runtime did not load (${why}); add it with: npm install --include=optional sherpa-onnx-node`,
    };
    return known;
  }
  known = { ready: true, text: `Mandarin word check: on (sherpa-onnx, model in ${dir})` };
  return known;
}
