/**
 * The figures the models read (server/words/en/model.json, fitted by scripts/words/train-en.ts).
 * Per-frame scores are in pocketsphinx's units (log base 1.0001, about 0.1 nat each) divided by 100.
 */
import type { Alignment } from './align';
import { FRAME_SECONDS } from './sphinx';

/** A word's goodness below this (forced minus loop per frame) counts it as "low" in glLow (about the worst tenth of learners' words in speechocean762). */
const LOW_GL = -0.6;
/** A pause counts in `npause` from this long. */
const PAUSE_SECONDS = 0.2;

export const UTTERANCE_FEATURES = [
  'coverage',
  'gl',
  'gs',
  'glMin',
  'glLow',
  'rate',
  'pause',
  'npause',
  'silGop',
  'match',
  'after',
  'tailGop',
] as const;
export type UtteranceFeatures = Record<(typeof UTTERANCE_FEATURES)[number], number>;

export const WORD_FEATURES = ['gl', 'glClip', 'gs', 'logFramesPerPhone', 'uttGl', 'uttSilGop'] as const;
export type WordFeatures = Record<(typeof WORD_FEATURES)[number], number>;

const UNIT = 100;

export function utteranceFeatures(a: Alignment): UtteranceFeatures {
  const frames = a.aligned.reduce((n, t) => n + t.end - t.start + 1, 0);
  const forced = a.aligned.reduce((n, t) => n + t.ascr, 0);
  const loop = a.aligned.reduce((n, t) => n + t.loop, 0);
  const gls = a.aligned.map((t) => (t.ascr - t.loop) / (t.end - t.start + 1) / UNIT);
  const phones = a.aligned.reduce((n, t) => n + t.phones, 0);
  const first = a.aligned[0]?.start ?? 0;
  const last = a.aligned.at(-1)?.end ?? 0;
  const inner = a.gaps.filter((g) => g.start > first && g.end < last);
  const pause = inner.reduce((n, g) => n + (g.end - g.start + 1) * FRAME_SECONDS, 0);
  const silFrames = a.gaps.reduce((n, g) => n + g.end - g.start + 1, 0);
  const silDiff = a.gaps.reduce((n, g) => n + g.ascr - g.loop, 0);
  const tail = a.gaps.filter((g) => g.start > last);
  const tailFrames = tail.reduce((n, g) => n + g.end - g.start + 1, 0);
  const tailDiff = tail.reduce((n, g) => n + g.ascr - g.loop, 0);
  // A take with no aligned word gets the worst values seen in practice rather than NaN.
  return {
    coverage: a.tokens.length ? a.aligned.length / a.tokens.length : 0,
    gl: frames ? (forced - loop) / frames / UNIT : -30,
    gs: frames ? forced / frames / UNIT : -60,
    glMin: gls.length ? Math.min(...gls) : -30,
    glLow: gls.length ? gls.filter((g) => g < LOW_GL).length / gls.length : 1,
    rate: frames ? phones / (frames * FRAME_SECONDS) : 0,
    pause,
    npause: inner.filter((g) => (g.end - g.start + 1) * FRAME_SECONDS >= PAUSE_SECONDS).length,
    silGop: silFrames ? silDiff / silFrames / UNIT : 0,
    match: a.failed ? -30 : (a.forcedTotal - a.loopTotal) / a.frames / UNIT,
    // Where the path ends: a take cut short ends with its words, another line leaves speech after
    // them that the grammar gave up on, which the phone loop explains far better than silence does.
    after: a.speechSeconds > 0 ? a.speechAfter / a.speechSeconds : 0,
    tailGop: tailFrames ? tailDiff / tailFrames / UNIT : 0,
  };
}

export function wordFeatures(a: Alignment, utt: UtteranceFeatures): WordFeatures[] {
  return a.aligned.map((t) => {
    const n = t.end - t.start + 1;
    const gl = (t.ascr - t.loop) / n / UNIT;
    return {
      gl,
      glClip: Math.min(gl, -5),
      gs: t.ascr / n / UNIT,
      logFramesPerPhone: Math.log(n / Math.max(1, t.phones)),
      uttGl: utt.gl,
      uttSilGop: utt.silGop,
    };
  });
}
