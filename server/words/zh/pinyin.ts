/**
 * A Mandarin line as the model's units (docs/words.md, "Mandarin"): each Chinese character of the subtitle with its
 * pinyin in context (pinyin-pro: polyphones by their neighbours, 一 and 不 with their tone changes), split
 * into the initial and the tone-marked final the model's tokens.txt spells. Tones are kept apart
 * (`tone`) and not compared: the check decides on initial and final only.
 */
import { pinyin } from 'pinyin-pro';

/** The initials in tokens.txt: y and w count as initials there (icefall's pinyin split, non-strict). */
const INITIALS = [
  'zh',
  'ch',
  'sh',
  'b',
  'p',
  'm',
  'f',
  'd',
  't',
  'n',
  'l',
  'g',
  'k',
  'h',
  'j',
  'q',
  'x',
  'r',
  'z',
  'c',
  's',
  'y',
  'w',
];
const INITIAL_SET: ReadonlySet<string> = new Set(INITIALS);
const TONE_MARKS: Record<string, 1 | 2 | 3 | 4> = { '\u0304': 1, '\u0301': 2, '\u030c': 3, '\u0300': 4 };

export interface Syllable {
  /** '' for a syllable without an initial (安 ān, 儿 ér). */
  initial: string;
  /** The final without its tone mark (ü kept: 女 nǚ → ü). */
  final: string;
  /** 1–4, 5 for the neutral tone. */
  tone: 1 | 2 | 3 | 4 | 5;
}

export interface LineChar extends Syllable {
  /** The character as the subtitle shows it. */
  text: string;
}

export function isInitial(token: string): boolean {
  return INITIAL_SET.has(token);
}

/** A tone-marked final (a token such as "iǎng" or "ǜ") as its bare final and its tone. */
export function splitTone(final: string): { final: string; tone: Syllable['tone'] } {
  let tone: Syllable['tone'] = 5;
  let bare = '';
  for (const ch of final.normalize('NFD')) {
    const t = TONE_MARKS[ch];
    if (t) tone = t;
    else bare += ch;
  }
  return { final: bare.normalize('NFC'), tone };
}

/** One pinyin syllable with a tone mark ("zhōng") as initial, final and tone. */
export function syllableOf(py: string): Syllable {
  const initial = INITIALS.find((i) => py.startsWith(i) && py.length > i.length) ?? '';
  return { initial, ...splitTone(py.slice(initial.length)) };
}

/**
 * The characters of a subtitle line that can be checked: Chinese characters whose final the model knows.
 * Digits, Latin letters and punctuation are left out (they are not read as written), and so is the rare
 * character whose final has no token (嗯 ǹg).
 * @param finals the bare finals the model has tokens for (recogniser.ts reads them from tokens.txt).
 */
export function lineChars(text: string, finals: ReadonlySet<string>): LineChar[] {
  const out: LineChar[] = [];
  for (const item of pinyin(text, { type: 'all' })) {
    if (!item.isZh || !item.pinyin) continue;
    const syllable = syllableOf(item.pinyin);
    if (finals.has(syllable.final)) out.push({ text: item.origin, ...syllable });
  }
  return out;
}
