/**
 * EmoDB utterance features for training and evaluation, extracted with analyzeVoice on the
 * padding-trimmed audio. Cached in the OS temp dir, keyed by a hash of the analysis source, so a
 * change to any analysis file re-extracts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emotion } from '../../src/api/contract';
import { analyzeVoice, FEATURE_NAMES } from '../../src/audio/analysis';
import { loadEmoDbAudio, loadEmoDbIndex } from '../lib/emodb';

export interface Sample {
  file: string;
  speaker: string;
  text: string;
  emotion: Emotion;
  features: Float64Array;
}

const analysisDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'audio', 'analysis');

function analysisHash(): string {
  const h = createHash('sha1');
  for (const f of readdirSync(analysisDir).sort()) {
    if (f.endsWith('.ts')) h.update(f).update(readFileSync(join(analysisDir, f)));
  }
  return h.digest('hex').slice(0, 12);
}

export function loadSamples(log = true): Sample[] {
  const entries = loadEmoDbIndex();
  const cacheDir = join(tmpdir(), 'film-speech-trainer', 'emodb-features');
  mkdirSync(cacheDir, { recursive: true });
  const cacheFile = join(cacheDir, `${analysisHash()}.json`);
  if (existsSync(cacheFile)) {
    const rows = JSON.parse(readFileSync(cacheFile, 'utf8')) as Array<
      Omit<Sample, 'features'> & { features: number[] }
    >;
    return rows.map((r) => ({ ...r, features: Float64Array.from(r.features) }));
  }
  const samples: Sample[] = [];
  const t0 = Date.now();
  for (const [i, e] of entries.entries()) {
    const audio = loadEmoDbAudio(e);
    const a = analyzeVoice(audio.samples, audio.sampleRate);
    samples.push({
      file: e.file,
      speaker: e.speaker,
      text: e.text,
      emotion: e.emotion,
      features: a.features,
    });
    if (log && (i + 1) % 100 === 0) console.error(`features: ${i + 1}/${entries.length}`);
  }
  if (log)
    console.error(
      `extracted ${FEATURE_NAMES.length} features from ${samples.length} files in ${Date.now() - t0} ms`,
    );
  writeFileSync(cacheFile, JSON.stringify(samples.map((s) => ({ ...s, features: Array.from(s.features) }))));
  return samples;
}
