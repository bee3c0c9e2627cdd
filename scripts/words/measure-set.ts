/**
 * The English check's passes over a whole set, for training (scripts/words/train-en.ts): each take
 * against its own line and against another line of the set (seeded), and the take cut to its first
 * CUT_SHARE against its own line, through the same passes and flags as the product
 * (server/words/en/align.ts alignMany). The alignments are cached under scripts/.cache, so a change of
 * features or verdict is measured again without running the engine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Alignment, alignMany, prepareLine, to16k } from '../../server/words/en/align';
import { type EnglishMeasures, measure } from '../../server/words/en/verdict';
import { seededOrder, seededRandom } from '../lib/seeded';
import { readTakeAudio, type SetTake } from './word-set';

/** The share of a take kept when it is cut short (bench/words.ts cuts the same). */
export const CUT_SHARE = 0.6;

export interface AlignedTake {
  take: SetTake;
  own: Alignment;
  other: Alignment;
  /** The take's first CUT_SHARE against its own line. */
  cut: Alignment;
  otherText: string;
  seconds: number;
  cutSeconds: number;
}

export interface MeasuredTake extends AlignedTake {
  measures: { own: EnglishMeasures; other: EnglishMeasures; cut: EnglishMeasures };
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

/** Aligns the set in chunks, each kept in the cache as it is done, so a stopped run resumes. */
async function alignSet(name: string, takes: SetTake[], cacheDir: string): Promise<AlignedTake[]> {
  const others = otherLines(takes);
  const chunks: number[] = [];
  const results = new Map<number, AlignedTake[]>();
  const chunkFile = (i: number) => path.join(cacheDir, `words-en-${name}-${i}.json`);
  mkdirSync(cacheDir, { recursive: true });
  for (let i = 0; i < takes.length; i += CHUNK) {
    if (existsSync(chunkFile(i))) results.set(i, JSON.parse(readFileSync(chunkFile(i), 'utf8')));
    else chunks.push(i);
  }
  let done = takes.length - chunks.length * CHUNK;
  // In a seeded order: the chunks done so far are a fair sample of the set's speakers.
  const order = seededOrder(chunks, 39);
  chunks.splice(0, chunks.length, ...order);
  // Two runs side by side: each pocketsphinx process is single-threaded.
  const worker = async () => {
    for (let i = chunks.shift(); i !== undefined; i = chunks.shift()) {
      const chunk = takes.slice(i, i + CHUNK);
      const pcms = chunk.map((t) => {
        const a = readTakeAudio(t);
        return to16k(a.samples, a.sampleRate);
      });
      const lines = chunk.map((t, k) => ({ own: prepareLine(t.text), other: prepareLine(others[i + k]) }));
      const cuts = pcms.map((p) => p.subarray(0, Math.floor(p.length * CUT_SHARE)));
      const aligned = await alignMany([
        ...chunk.map((_, k) => ({ pcm16k: pcms[k], lines: [lines[k].own, lines[k].other] })),
        ...chunk.map((_, k) => ({ pcm16k: cuts[k], lines: [lines[k].own] })),
      ]);
      const result = chunk.map((take, k) => ({
        take,
        own: aligned[k][0],
        other: aligned[k][1],
        cut: aligned[chunk.length + k][0],
        otherText: others[i + k],
        seconds: pcms[k].length / 16_000,
        cutSeconds: cuts[k].length / 16_000,
      }));
      writeFileSync(chunkFile(i), JSON.stringify(result));
      results.set(i, result);
      done += chunk.length;
      process.stderr.write(`\r${name}: ${done}/${takes.length}`);
    }
  };
  await Promise.all([worker(), worker()]);
  process.stderr.write('\n');
  return [...results.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, r]) => r);
}

export async function measureSet(name: string, takes: SetTake[], cacheDir: string): Promise<MeasuredTake[]> {
  const cache = path.join(cacheDir, `words-en-${name}-aligned.json`);
  let aligned: AlignedTake[];
  if (existsSync(cache)) aligned = JSON.parse(readFileSync(cache, 'utf8')) as AlignedTake[];
  else {
    aligned = await alignSet(name, takes, cacheDir);
    writeFileSync(cache, JSON.stringify(aligned));
  }
  return aligned.map((t) => ({
    ...t,
    measures: { own: measure(t.own), other: measure(t.other), cut: measure(t.cut) },
  }));
}
