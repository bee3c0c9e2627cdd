/**
 * From what the two passes measured to the learner's verdict (the WordCheck contract,
 * src/api/contract/words.ts): each word said, missed or off, completeness, whether the take is
 * another line, the sentence grades, and the words' 0–100 part of the overall score.
 */
import type { CheckedWord, WordCheck } from '../../../src/api/contract';
import type { Alignment } from './align';
import { type UtteranceFeatures, utteranceFeatures, type WordFeatures, wordFeatures } from './features';
import { ENGLISH_MODEL, type EnglishModel, predict } from './model';
import { FRAME_SECONDS } from './sphinx';

export interface EnglishMeasures {
  utterance: UtteranceFeatures;
  /** One per said token, in order, with the line word it belongs to. */
  words: { word: number; features: WordFeatures; accuracy: number }[];
  /** The line model's value (below the model's threshold: another line). */
  lineValue: number;
  /** The same as if the words on the path were the whole line (the cut-short reading). */
  prefixValue: number;
  failed: boolean;
}

/** Less sound than this loud enough for speech (align.ts speechSeconds) is no line at all. */
export const MIN_SPEECH_SECONDS = 0.15;

const clamp10 = (v: number) => Math.round(Math.min(10, Math.max(0, v)) * 10) / 10;

export function measure(a: Alignment, model: EnglishModel = ENGLISH_MODEL): EnglishMeasures {
  const utterance = utteranceFeatures(a);
  const perToken = wordFeatures(a, utterance);
  return {
    utterance,
    words: a.aligned.map((t, i) => ({
      word: a.tokens[t.token].word,
      features: perToken[i],
      accuracy: predict(model.word, perToken[i]),
    })),
    lineValue: a.failed ? Number.NEGATIVE_INFINITY : predict(model.line, utterance),
    prefixValue: a.failed ? Number.NEGATIVE_INFINITY : predict(model.line, { ...utterance, coverage: 1 }),
    failed: a.failed,
  };
}

/**
 * A take that stopped partway through its line: the path ends before the line does, hardly any speech
 * follows its last word, and its figures (the words on it as if they were the whole line among them)
 * read as a take cut short rather than another line, however weakly its own words fit. Another line
 * either runs the grammar through all its words, leaves speech after the path that the grammar gave
 * up on, or fits the line's first words worse than a learner's own start does.
 */
export function readsCutShort(m: EnglishMeasures, model: EnglishModel = ENGLISH_MODEL): boolean {
  const cut = model.line.cutShort;
  return (
    m.utterance.coverage < 1 &&
    m.utterance.after <= cut.after &&
    predict(cut, { ...m.utterance, prefix: m.prefixValue }) >= cut.threshold
  );
}

/** The take is not this line (said in full or cut short), or no words at all. */
export function isOtherLine(a: Alignment, m: EnglishMeasures, model: EnglishModel = ENGLISH_MODEL): boolean {
  if (m.failed || a.aligned.length === 0 || a.speechSeconds < MIN_SPEECH_SECONDS) return true;
  return m.lineValue < model.line.threshold && !readsCutShort(m, model);
}

/**
 * A word the end of the take cut into: the path reaches the take's last frames with it, said at under
 * this many 10 ms frames a phone. The prefix grammar squeezes the word the cut splits, and sometimes
 * the next, into what is left. In so762-train's right lines the last word took 5.3 frames a phone or
 * more in 99.5 % of takes (median 14); in the takes cut to 60 % whose path reached the end, 39 of 413
 * last words took fewer than 5.
 */
const CUT_INTO_FRAMES_PER_PHONE = 5;
/** Frames from the take's end within which the path's last word counts as reaching it. */
const END_FRAMES = 2;

/** Indices (into a.aligned) of the path's last tokens that the end of the take cut into. */
function cutIntoByTheEnd(a: Alignment): Set<number> {
  const cut = new Set<number>();
  const last = a.aligned.at(-1);
  if (!last || last.end < a.frames - 1 - END_FRAMES) return cut;
  for (let i = a.aligned.length - 1; i >= 0; i--) {
    const t = a.aligned[i];
    if ((t.end - t.start + 1) / t.phones >= CUT_INTO_FRAMES_PER_PHONE) break;
    cut.add(i);
  }
  return cut;
}

export function verdict(a: Alignment, m: EnglishMeasures, model: EnglishModel = ENGLISH_MODEL): WordCheck {
  const otherLine = isOtherLine(a, m, model);
  const cutInto = cutIntoByTheEnd(a);
  const words: CheckedWord[] = a.words.map((w) => ({
    text: w.text,
    state: 'missed',
    start: null,
    end: null,
  }));
  a.aligned.forEach((t, i) => {
    if (cutInto.has(i)) return;
    const w = words[m.words[i].word];
    const start = t.start * FRAME_SECONDS;
    const end = (t.end + 1) * FRAME_SECONDS;
    w.start = w.start === null ? start : Math.min(w.start, start);
    w.end = w.end === null ? end : Math.max(w.end, end);
    // A word of several tokens ("42": forty two) is off when any of them is.
    const off = m.words[i].accuracy < model.offBelow;
    w.state = w.state === 'off' || off ? 'off' : 'said';
  });
  // A word split into tokens counts as said only when all of them were heard.
  const saidTokens = new Map<number, number>();
  a.aligned.forEach((t, i) => {
    if (!cutInto.has(i))
      saidTokens.set(a.tokens[t.token].word, (saidTokens.get(a.tokens[t.token].word) ?? 0) + 1);
  });
  a.words.forEach((w, i) => {
    const said = saidTokens.get(i) ?? 0;
    if (said > 0 && said < w.keys.length)
      Object.assign(words[i], { state: 'missed', start: null, end: null });
  });
  // Another line: none of this line's words were heard, whatever the grammar forced onto the take.
  if (otherLine) for (const w of words) Object.assign(w, { state: 'missed', start: null, end: null });
  const heard = words.filter((w) => w.state !== 'missed').length;
  const completeness = words.length ? heard / words.length : 0;
  const x = m.utterance;
  const pronunciation = otherLine
    ? null
    : {
        accuracy: clamp10(predict(model.sentence.accuracy, x)),
        fluency: clamp10(predict(model.sentence.fluency, x)),
        total: clamp10(predict(model.sentence.total, x)),
      };
  const score = pronunciation ? Math.round(100 * completeness * (pronunciation.total / 10)) : 0;
  return { status: 'checked', language: 'en', words, completeness, otherLine, pronunciation, score };
}
