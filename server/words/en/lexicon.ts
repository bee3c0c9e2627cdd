/**
 * Pronunciations for the line's words (docs/words.md): the CMU dictionary of Debian's
 * pocketsphinx-en-us package, and for a word it lacks a plain fallback, so every word of a line can be
 * aligned: a possessive or plural of a known word gets the known word plus S/Z, anything else is
 * spelled by simple letter rules (digraphs first, then one phone per letter). The fallback is rough;
 * such a word is still aligned, but its pronunciation grade means less.
 */
import { readFileSync } from 'node:fs';

const cache = new Map<string, Map<string, string[]>>();

/** Every pronunciation of every word: "read" → ["R EH D", "R IY D"]. */
export function loadDictionary(path: string): Map<string, string[]> {
  const hit = cache.get(path);
  if (hit) return hit;
  const dict = new Map<string, string[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space < 1) continue;
    const word = line.slice(0, space).replace(/\(\d+\)$/, '');
    const phones = line.slice(space + 1).trim();
    const list = dict.get(word);
    if (list) list.push(phones);
    else dict.set(word, [phones]);
  }
  cache.set(path, dict);
  return dict;
}

// Longest spellings first; the en-us model's 39 phones (no stress digits).
const LETTER_RULES: [string, string][] = [
  ['tch', 'CH'],
  ['igh', 'AY'],
  ['ough', 'AO'],
  ['sh', 'SH'],
  ['ch', 'CH'],
  ['th', 'TH'],
  ['ph', 'F'],
  ['ng', 'NG'],
  ['ck', 'K'],
  ['qu', 'K W'],
  ['wh', 'W'],
  ['ee', 'IY'],
  ['ea', 'IY'],
  ['oo', 'UW'],
  ['ou', 'AW'],
  ['ow', 'OW'],
  ['ai', 'EY'],
  ['ay', 'EY'],
  ['oi', 'OY'],
  ['oy', 'OY'],
  ['au', 'AO'],
  ['aw', 'AO'],
  ['er', 'ER'],
  ['ir', 'ER'],
  ['ur', 'ER'],
  ['ar', 'AA R'],
  ['or', 'AO R'],
  ['a', 'AE'],
  ['b', 'B'],
  ['c', 'K'],
  ['d', 'D'],
  ['e', 'EH'],
  ['f', 'F'],
  ['g', 'G'],
  ['h', 'HH'],
  ['i', 'IH'],
  ['j', 'JH'],
  ['k', 'K'],
  ['l', 'L'],
  ['m', 'M'],
  ['n', 'N'],
  ['o', 'AA'],
  ['p', 'P'],
  ['r', 'R'],
  ['s', 'S'],
  ['t', 'T'],
  ['u', 'AH'],
  ['v', 'V'],
  ['w', 'W'],
  ['x', 'K S'],
  ['y', 'Y'],
  ['z', 'Z'],
];

/** Letter-rule spelling of a word the dictionary lacks ("" when it has no latin letters). */
export function spellByRules(word: string): string {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  const phones: string[] = [];
  let i = 0;
  while (i < letters.length) {
    // A final silent e after a consonant ("make") adds nothing; a final y after one is a vowel ("henny").
    if (letters[i] === 'e' && i === letters.length - 1 && i > 1) break;
    if (letters[i] === 'y' && i === letters.length - 1 && i > 0 && !/[aeiou]/.test(letters[i - 1])) {
      phones.push('IY');
      break;
    }
    // A final "ed" after anything but t or d is a bare D ("jumped").
    if (letters.startsWith('ed', i) && i === letters.length - 2 && i > 1 && !/[td]/.test(letters[i - 1])) {
      if (phones.at(-1) !== 'D') phones.push('D');
      break;
    }
    const rule = LETTER_RULES.find(([spelling]) => letters.startsWith(spelling, i));
    if (!rule) {
      i++;
      continue;
    }
    const last = phones.at(-1);
    if (last !== rule[1]) phones.push(rule[1]);
    i += rule[0].length;
  }
  return phones.join(' ');
}

/** The pronunciations of one dictionary key, with the fallback; null when not even letters help. */
export function pronounce(
  dict: Map<string, string[]>,
  key: string,
): { phones: string[]; known: boolean } | null {
  const known = dict.get(key);
  if (known) return { phones: known, known: true };
  const base = /^(.+?)'?s$/.exec(key)?.[1];
  const baseProns = base ? dict.get(base) : undefined;
  if (baseProns) {
    return {
      phones: baseProns.map(
        (p) => `${p} ${/(P|T|K|F|TH)$/.test(p) ? 'S' : /(S|Z|SH|ZH|CH|JH)$/.test(p) ? 'IH Z' : 'Z'}`,
      ),
      known: false,
    };
  }
  const spelled = spellByRules(key);
  return spelled ? { phones: [spelled], known: false } : null;
}
