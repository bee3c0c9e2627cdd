/**
 * The words of an English subtitle line as the check hears them (docs/words.md): lower case, no
 * punctuation, apostrophes kept inside words (the dictionary holds "don't", "ann's"), hyphens and
 * dashes split, and whole numbers spelled out so "3 o'clock" is looked up as "three o'clock".
 * Each word keeps the text the subtitle shows, for the learner's page.
 */

export interface LineWord {
  /** As the subtitle writes it, punctuation stripped. */
  text: string;
  /** One or more dictionary keys said for it ("42" → "forty", "two"). */
  keys: string[];
}

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

const ORDINALS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** 0–999 999 in words; larger numbers are read digit by digit. */
export function numberWords(n: number): string[] {
  if (!Number.isInteger(n) || n < 0) return [];
  if (n >= 1_000_000)
    return String(n)
      .split('')
      .map((d) => ONES[Number(d)]);
  if (n < 20) return [ONES[n]];
  if (n < 100) return n % 10 ? [TENS[Math.floor(n / 10)], ONES[n % 10]] : [TENS[n / 10]];
  if (n < 1000) {
    const rest = n % 100;
    return [ONES[Math.floor(n / 100)], 'hundred', ...(rest ? numberWords(rest) : [])];
  }
  const rest = n % 1000;
  return [...numberWords(Math.floor(n / 1000)), 'thousand', ...(rest ? numberWords(rest) : [])];
}

/** Years as people say them: 1984 → nineteen eighty-four, 2005 → two thousand five. */
function yearWords(n: number): string[] {
  if (n >= 1100 && n < 2000 && n % 100 !== 0) {
    const tail = n % 100;
    return [...numberWords(Math.floor(n / 100)), ...(tail < 10 ? ['oh', ONES[tail]] : numberWords(tail))];
  }
  return numberWords(n);
}

function keysOf(token: string): string[] {
  const digits = token.replace(/,/g, '');
  if (/^\d+$/.test(digits)) {
    const n = Number(digits);
    return /^1\d\d\d$|^20\d\d$/.test(token) ? yearWords(n) : numberWords(n);
  }
  const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(token);
  if (ordinal) {
    const words = numberWords(Number(ordinal[1]));
    const last = words.pop() ?? '';
    return [...words, ORDINALS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`)];
  }
  return [token];
}

/** The line's words in order; an empty list when it has none. */
export function lineWords(text: string): LineWord[] {
  const words: LineWord[] = [];
  const normalised = text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[-\u2010-\u2015/]+/g, ' ');
  for (const raw of normalised.split(/\s+/)) {
    // Letters, digits and apostrophes between them; quotes at the ends are punctuation.
    const shown = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (!shown) continue;
    const token = shown.toLowerCase().replace(/[^\p{L}\p{N}',]/gu, '');
    const keys = keysOf(token.replace(/,/g, '') === token ? token : token.replace(/,(?!\d{3})/g, ''))
      .map((k) => k.replace(/,/g, ''))
      .filter(Boolean);
    if (keys.length) words.push({ text: shown, keys });
  }
  return words;
}
