/**
 * The two passes of one English check (docs/words.md) and what they measured, before any model:
 * - the line: a prefix grammar of its words (the take may stop after any word), whose path says which
 *   words were said, where, and how well each matched (its score against the best senone per frame);
 * - the free phone loop: the best any sequence of phones could do on the same frames, so a word's
 *   forced score minus the loop's over its frames is a likelihood ratio (a GOP-style goodness).
 * An alignment that finds no path is retried with wide beams; one that still fails means the take is
 * not this line.
 */
import { resampleSinc } from '../../../src/audio/analysis/resample-sinc';
import { loadDictionary, pronounce } from './lexicon';
import {
  type EnginePaths,
  enginePaths,
  FRAME_SECONDS,
  runBatch,
  type Segment,
  SPHINX_RATE,
  withTakes,
} from './sphinx';
import { type LineWord, lineWords } from './text';

/** One dictionary key of the line (a number can say several) with its pronunciations. */
export interface Token {
  word: number;
  key: string;
  phones: string[];
  known: boolean;
}

export interface AlignedToken {
  token: number;
  start: number;
  end: number;
  /** Forced acoustic score over the token's frames. */
  ascr: number;
  /** The phone loop's score over the same frames. */
  loop: number;
  phones: number;
  /** How many of the token's frames are loud enough for speech (speechFrames). */
  speech: number;
}

export interface Alignment {
  words: LineWord[];
  tokens: Token[];
  /** The tokens said, in order (a prefix of `tokens`). Empty when the alignment failed. */
  aligned: AlignedToken[];
  /** No path even with wide beams. */
  failed: boolean;
  /** Non-word stretches (silence, noise) of the alignment, with the loop's score over them. */
  gaps: { start: number; end: number; ascr: number; loop: number }[];
  frames: number;
  /** Total acoustic score of the alignment and of the loop over the whole take. */
  forcedTotal: number;
  loopTotal: number;
  seconds: number;
  /** Seconds of the take loud enough to hold speech (speechFrames). */
  speechSeconds: number;
  /**
   * Seconds loud enough for speech after the last word on the path (the whole take's when none is):
   * a take cut short ends where its words end, another line leaves speech the grammar gave up on.
   */
  speechAfter: number;
}

/** Below this a 10 ms frame holds no speech, whatever the grammar forced onto it (dBFS). */
const SPEECH_FLOOR_DB = -50;
/** …and a frame must stand this far above the take's quiet frames (its 10th percentile). */
const SPEECH_ABOVE_QUIET_DB = 15;

/**
 * Which 10 ms frames can hold speech. Batch normalisation (`-cmn batch`) lifts a silent take's noise
 * to speech level, so the grammar happily aligns words to it; a level gate says plainly that nothing
 * was said.
 */
export function speechFrames(pcm: Float32Array, rate = SPHINX_RATE): boolean[] {
  const hop = Math.round(rate * FRAME_SECONDS);
  const levels: number[] = [];
  for (let i = 0; i + hop <= pcm.length; i += hop) {
    let e = 0;
    for (let k = i; k < i + hop; k++) e += pcm[k] * pcm[k];
    levels.push(10 * Math.log10(e / hop + 1e-12));
  }
  if (!levels.length) return [];
  const quiet = [...levels].sort((a, b) => a - b)[Math.floor(levels.length * 0.1)];
  const gate = Math.max(SPEECH_FLOOR_DB, quiet + SPEECH_ABOVE_QUIET_DB);
  return levels.map((l) => l > gate);
}

/** The level gate's figures for an alignment: where the take is loud enough for speech. */
function withSpeech(a: Alignment, pcm: Float32Array): Alignment {
  const speech = speechFrames(pcm);
  const count = (from: number, to: number) => {
    let n = 0;
    for (let f = Math.max(0, from); f <= to && f < speech.length; f++) if (speech[f]) n++;
    return n;
  };
  const end = a.aligned.at(-1)?.end ?? -1;
  return {
    ...a,
    aligned: a.aligned.map((t) => ({ ...t, speech: count(t.start, t.end) })),
    speechSeconds: count(0, speech.length - 1) * FRAME_SECONDS,
    speechAfter: count(end + 1, speech.length - 1) * FRAME_SECONDS,
  };
}

export function lineTokens(words: LineWord[], dict: Map<string, string[]>): Token[] {
  const tokens: Token[] = [];
  words.forEach((w, word) => {
    for (const key of w.keys) {
      const p = pronounce(dict, key);
      if (p) tokens.push({ word, key, phones: p.phones, known: p.known });
    }
  });
  return tokens;
}

/**
 * Dictionary entries named <prefix>t0, <prefix>t1, … so any spelling (accents, apostrophes) is safe in
 * the files, and several lines can share one run (the training script).
 */
export function tokenDictionary(tokens: Token[], prefix = ''): string {
  const lines: string[] = [];
  tokens.forEach((t, i) => {
    t.phones.forEach((p, v) => {
      lines.push(`${prefix}t${i}${v === 0 ? '' : `(${v + 1})`} ${p}`);
    });
  });
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A chain of the tokens with a null transition from every inner state to the end: any prefix. */
export function prefixGrammar(count: number, prefix = ''): string {
  const lines = ['FSG_BEGIN line', `NUM_STATES ${count + 1}`, 'START_STATE 0', `FINAL_STATE ${count}`];
  for (let i = 0; i < count; i++) lines.push(`TRANSITION ${i} ${i + 1} 1.0 ${prefix}t${i}`);
  for (let i = 1; i < count; i++) lines.push(`TRANSITION ${i} ${count} 1.0`);
  lines.push('FSG_END');
  return `${lines.join('\n')}\n`;
}

/** The loop's score per frame: each phone segment's score spread evenly over its frames. */
function loopPerFrame(loop: Segment[] | null, frames: number): Float64Array {
  const out = new Float64Array(frames);
  for (const s of loop ?? []) {
    const n = s.end - s.start + 1;
    for (let f = s.start; f <= s.end && f < frames; f++) out[f] = s.ascr / n;
  }
  return out;
}

function sum(perFrame: Float64Array, start: number, end: number): number {
  let total = 0;
  for (let f = start; f <= end && f < perFrame.length; f++) total += perFrame[f];
  return total;
}

export function to16k(samples: Float32Array, sampleRate: number): Float32Array {
  return resampleSinc(samples, Math.round(sampleRate), SPHINX_RATE);
}

export interface PreparedLine {
  words: LineWord[];
  tokens: Token[];
}

export function prepareLine(text: string, paths: EnginePaths = enginePaths()): PreparedLine {
  const words = lineWords(text);
  return { words, tokens: lineTokens(words, loadDictionary(paths.dict)) };
}

/** What the two passes found, put together (pure). `forced` null: no path even with wide beams. */
export function combine(
  line: PreparedLine,
  samples16k: number,
  forced: Segment[] | null,
  loop: Segment[] | null,
  prefix = '',
): Alignment {
  const { words, tokens } = line;
  const frames = Math.max(1, Math.floor(samples16k / (SPHINX_RATE * FRAME_SECONDS)));
  const perFrame = loopPerFrame(loop, frames);
  const aligned: AlignedToken[] = [];
  const gaps: Alignment['gaps'] = [];
  let forcedTotal = 0;
  const tokenLabel = new RegExp(`^${prefix}t(\\d+)$`);
  for (const s of forced ?? []) {
    forcedTotal += s.ascr;
    const m = tokenLabel.exec(s.label);
    const loopScore = sum(perFrame, s.start, s.end);
    if (m) {
      const token = Number(m[1]);
      aligned.push({
        token,
        start: s.start,
        end: s.end,
        ascr: s.ascr,
        loop: loopScore,
        phones: tokens[token].phones[0].split(' ').length,
        speech: 0,
      });
    } else gaps.push({ start: s.start, end: s.end, ascr: s.ascr, loop: loopScore });
  }
  return {
    words,
    tokens,
    aligned,
    failed: tokens.length > 0 && !forced,
    gaps,
    frames,
    forcedTotal,
    loopTotal: sum(perFrame, 0, frames - 1),
    seconds: samples16k / SPHINX_RATE,
    speechSeconds: 0,
    speechAfter: 0,
  };
}

/** One take against its line: the product's path (server/words/en/index.ts). */
export async function alignLine(
  samples: Float32Array,
  sampleRate: number,
  line: PreparedLine,
  paths: EnginePaths = enginePaths(),
): Promise<Alignment> {
  const pcm = to16k(samples, sampleRate);
  const dict = tokenDictionary(line.tokens);
  const fsg = prefixGrammar(line.tokens.length);
  // The grammar pass scores the frames, and the loop searches those scores as they come; a retry
  // only searches the kept copy (withTakes).
  const [forced, loop] = await withTakes(
    [{ pcm, fsg }],
    dict,
    async (pass, pair) => {
      const [[first], [loop]] = await pair({}, { loop: true });
      return [first ?? (await pass({ wide: true }))[0], loop];
    },
    paths,
  );
  return withSpeech(combine(line, pcm.length, forced, loop), pcm);
}

/**
 * Many takes, each against one or more lines, in a few long runs (the training script): the same
 * passes and flags as alignLine, without a process start per take; the loop runs once per take.
 */
export async function alignMany(
  takes: { pcm16k: Float32Array; lines: PreparedLine[] }[],
  paths: EnginePaths = enginePaths(),
): Promise<Alignment[][]> {
  const loops = await runBatch(
    { utterances: takes.map((t) => ({ pcm: t.pcm16k })), dict: '', loop: true },
    paths,
  );
  const pairs = takes.flatMap((t, ti) => t.lines.map((line, li) => ({ ti, li, line, pcm: t.pcm16k })));
  const prefix = (i: number) => `u${i}_`;
  const dict = pairs.map((p, i) => tokenDictionary(p.line.tokens, prefix(i))).join('');
  const forced = await runBatch(
    {
      utterances: pairs.map((p, i) => ({ pcm: p.pcm, fsg: prefixGrammar(p.line.tokens.length, prefix(i)) })),
      dict,
    },
    paths,
  );
  const retry = pairs.map((_, i) => i).filter((i) => !forced[i]);
  if (retry.length) {
    const wide = await runBatch(
      {
        utterances: retry.map((i) => ({
          pcm: pairs[i].pcm,
          fsg: prefixGrammar(pairs[i].line.tokens.length, prefix(i)),
        })),
        dict,
        wide: true,
      },
      paths,
    );
    retry.forEach((i, k) => {
      forced[i] = wide[k];
    });
  }
  const out: Alignment[][] = takes.map(() => []);
  pairs.forEach((p, i) => {
    out[p.ti][p.li] = withSpeech(combine(p.line, p.pcm.length, forced[i], loops[p.ti], prefix(i)), p.pcm);
  });
  return out;
}
