/**
 * The English check's measures over a whole set, for training (scripts/words/train-en.ts): each take
 * against its own line and against another line of the set (seeded), through the same passes and
 * flags as the product (server/words/en/align.ts alignMany), cached under scripts/.cache.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { alignMany, prepareLine, to16k } from '../../server/words/en/align';
import { type EnglishMeasures, measure } from '../../server/words/en/verdict';
import { seededRandom } from '../lib/seeded';
import { readTakeAudio, type SetTake } from './word-set';

export interface MeasuredTake {
  take: SetTake;
  own: EnglishMeasures;
  other: EnglishMeasures;
  otherText: string;
  seconds: number;
}

/** Another line for each take: a different text, by another speaker where the set has one (seeded). */
export function otherLines(takes: readonly SetTake[], seed = 39): string[] {
  const rand = seededRandom(seed);
  return takes.map((t) => {
    const pool = takes.filter((o) => o.text !== t.text && o.speaker !== t.speaker);
    const fallback = takes.filter((o) => o.text !== t.text);
    const from = pool.length ? pool : fallback;
    return from.length ? from[Math.floor(rand() * from.length)].text : t.text;
  });
}

const CHUNK = 25;

export async function measureSet(name: string, takes: SetTake[], cacheDir: string): Promise<MeasuredTake[]> {
  const cache = path.join(cacheDir, `words-en-${name}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as MeasuredTake[];
  const others = otherLines(takes);
  const chunks: number[] = [];
  for (let i = 0; i < takes.length; i += CHUNK) chunks.push(i);
  const results = new Map<number, MeasuredTake[]>();
  let done = 0;
  // Two runs side by side: each pocketsphinx process is single-threaded.
  const worker = async () => {
    for (let i = chunks.shift(); i !== undefined; i = chunks.shift()) {
      const chunk = takes.slice(i, i + CHUNK);
      const pcms = chunk.map((t) => {
        const a = readTakeAudio(t);
        return to16k(a.samples, a.sampleRate);
      });
      const lines = chunk.map((t, k) => [prepareLine(t.text), prepareLine(others[i + k])]);
      const aligned = await alignMany(chunk.map((_, k) => ({ pcm16k: pcms[k], lines: lines[k] })));
      results.set(
        i,
        chunk.map((take, k) => ({
          take,
          own: measure(aligned[k][0]),
          other: measure(aligned[k][1]),
          otherText: others[i + k],
          seconds: pcms[k].length / 16_000,
        })),
      );
      done += chunk.length;
      process.stderr.write(`\r${name}: ${done}/${takes.length}`);
    }
  };
  await Promise.all([worker(), worker()]);
  const out = [...results.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, r]) => r);
  process.stderr.write('\n');
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cache, JSON.stringify(out));
  return out;
}
