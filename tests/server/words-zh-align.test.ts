import { describe, expect, it } from 'vitest';
import { agreement, alignLine, heardSyllables } from '../../server/words/zh/align';
import { lineChars, syllableOf } from '../../server/words/zh/pinyin';
import { judgeLine } from '../../server/words/zh/verdict';

/** The bare finals of the model's tokens.txt that these lines use. */
const FINALS = new Set([
  'i',
  'ong',
  'ou',
  'iang',
  'e',
  'ei',
  'in',
  'iao',
  'ü',
  'er',
  'a',
  'an',
  'ian',
  'u',
  'ao',
]);

const spelled = (text: string) =>
  lineChars(text, FINALS).map((c) => `${c.text}:${c.initial}|${c.final}${c.tone}`);

describe('Mandarin line as the model spells it', () => {
  it('splits each character into the initial and bare final of tokens.txt, with its tone apart', () => {
    expect(spelled('其中有两个')).toEqual(['其:q|i2', '中:zh|ong1', '有:y|ou3', '两:l|iang3', '个:g|e4']);
  });

  it('keeps ü, a syllable without an initial, the neutral tone and 一 / 不 in their changed tones', () => {
    expect(spelled('女儿的一个不是')).toEqual([
      '女:n|ü3',
      '儿:|er2',
      '的:d|e5',
      '一:y|i2',
      '个:g|e4',
      '不:b|u2',
      '是:sh|i4',
    ]);
  });

  it('leaves out punctuation, digits, Latin letters and finals the model has no token for', () => {
    expect(spelled('“你好！” 2024 OK 嗯').map((s) => s[0])).toEqual(['你', '好']);
  });

  it('reads a tone-marked syllable without its initial when it has none', () => {
    expect(syllableOf('ān')).toEqual({ initial: '', final: 'an', tone: 1 });
    expect(syllableOf('zhǎng')).toEqual({ initial: 'zh', final: 'ang', tone: 3 });
  });
});

describe('Mandarin syllables heard and aligned', () => {
  const heard = heardSyllables({
    tokens: ['sh', 'ì', 'sh', 'í', 'ān', '<unk>', 'q'],
    timestamps: [0.5, 0.6, 1.0, 1.1, 1.6, 1.7, 2.0],
  });

  it('groups tokens into syllables with spans that start no earlier than the previous one ends', () => {
    expect(heard.map((h) => `${h.initial}|${h.final}${h.tone}`)).toEqual(['sh|i4', 'sh|i2', '|an1', 'q|5']);
    expect(heard[0].start).toBeCloseTo(0.3);
    expect(heard[1].start).toBeCloseTo(0.8);
    expect(heard[2].start).toBeCloseTo(1.4);
    for (const h of heard) expect(h.end).toBeGreaterThan(h.start);
    // After a pause a syllable ends just after its last token.
    expect(heard[0].end).toBeCloseTo(0.68);
  });

  it('ends a syllable where the next one begins when they follow without a pause', () => {
    // 中国: zh-ōng's last token at 0.60 and g-uó's first at 0.64, so guo begins at 0.60.
    const [zhong, guo] = heardSyllables({
      tokens: ['zh', 'ōng', 'g', 'uó'],
      timestamps: [0.5, 0.6, 0.64, 0.72],
    });
    expect(guo.start).toBeCloseTo(0.6);
    expect(zhong.end).toBeCloseTo(0.6);
    expect(guo.end).toBeCloseTo(0.8);
  });

  it('counts initial and final, never the tone', () => {
    const shi4 = { initial: 'sh', final: 'i', tone: 4 as const };
    expect(agreement(shi4, { initial: 'sh', final: 'i', tone: 2 })).toBe(1);
    expect(agreement(shi4, { initial: 'sh', final: 'an', tone: 4 })).toBe(0.4);
    expect(agreement(shi4, { initial: 'zh', final: 'i', tone: 4 })).toBeCloseTo(0.6);
    expect(agreement(shi4, { initial: 'q', final: 'ao', tone: 4 })).toBe(0);
  });

  it('pairs a repeated syllable with the earlier character when the take stops short', () => {
    // 实际是十: shi ji shi shi. A take that said only "shi ji shi" said the first three.
    const line = lineChars('实际是十', new Set(['i']));
    const stopped = heardSyllables({
      tokens: ['sh', 'í', 'j', 'ì', 'sh', 'ì'],
      timestamps: [0.5, 0.6, 0.8, 0.9, 1.1, 1.2],
    });
    expect(alignLine(line, stopped)).toEqual([0, 1, 2, -1]);
  });

  it('aligns nothing when nothing was heard', () => {
    expect(alignLine(lineChars('其中', FINALS), [])).toEqual([-1, -1]);
  });
});

describe('Mandarin verdict on a short line', () => {
  const line = lineChars('你好', new Set(['i', 'ao']));
  const syllables = (...said: string[]) =>
    heardSyllables({
      tokens: said.flatMap((s) => s.split(' ')),
      timestamps: said.flatMap((s, i) => s.split(' ').map((_, k) => 0.3 + i * 0.3 + k * 0.1)),
    });

  it('is the line when it was said with a stray syllable or two around it', () => {
    for (const heard of [syllables('n ǐ', 'h ǎo'), syllables('ēn', 'n ǐ', 'h ǎo', 'a')]) {
      const c = judgeLine(line, heard);
      expect(c.completeness).toBe(1);
      expect(c.otherLine).toBe(false);
    }
  });

  it('is another line when its syllables come inside a longer sentence', () => {
    const c = judgeLine(
      line,
      syllables('w ǒ', 'm en', 'j īn', 't iān', 'n ǐ', 'h ǎo', 'g āo', 'x ìng', 'j iàn', 'd ào'),
    );
    // Every character was among the syllables, but the take is another line: none counts as said,
    // so the line panel, the words' score and the summary agree.
    expect(c.otherLine).toBe(true);
    expect(c.words.map((w) => [w.state, w.start, w.end])).toEqual(line.map(() => ['missed', null, null]));
    expect(c.completeness).toBe(0);
    expect(c.score).toBe(0);
  });
});
