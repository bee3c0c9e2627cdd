import { describe, expect, it } from 'vitest';
import type { WordCheck } from '../../../src/api/contract';
import {
  INCOMPLETE_CAP,
  OTHER_LINE_CAP,
  overallWithWords,
  PASS_SCORE,
  withWords,
  wordsSubScore,
} from '../../../src/audio/scoring/words';
import { speechScore } from '../fixtures/speech-score';

const said = (text: string, start: number) => ({ text, state: 'said' as const, start, end: start + 0.3 });
const missed = (text: string) => ({ text, state: 'missed' as const, start: null, end: null });

/** A checked take of "She hands it in on Wednesday" with `heard` of its six words said. */
function checked(heard: number, fields: Partial<Extract<WordCheck, { status: 'checked' }>> = {}): WordCheck {
  const text = ['She', 'hands', 'it', 'in', 'on', 'Wednesday'];
  return {
    status: 'checked',
    language: 'en',
    words: text.map((w, i) => (i < heard ? said(w, i * 0.4) : missed(w))),
    completeness: heard / text.length,
    otherLine: false,
    pronunciation: { accuracy: 8, fluency: 8, total: 8 },
    score: Math.round((100 * heard) / text.length),
    ...fields,
  };
}

const deliveries = Array.from({ length: 21 }, (_, i) => i * 5);

describe('the words in the overall score (src/audio/scoring/words.ts)', () => {
  it('another line cannot pass, whatever its delivery, even if the engine rates its sounds well', () => {
    const other = checked(6, { otherLine: true, score: 100 });
    for (const delivery of deliveries) {
      expect(overallWithWords(delivery, other), `delivery ${delivery}`).toBeLessThanOrEqual(OTHER_LINE_CAP);
    }
    expect(OTHER_LINE_CAP).toBeLessThan(PASS_SCORE);
  });

  it('a take with no words at all (reversed speech, humming) cannot pass', () => {
    const none = checked(0, { otherLine: true, score: 0 });
    for (const delivery of deliveries) expect(overallWithWords(delivery, none)).toBeLessThan(PASS_SCORE);
  });

  it('a take that missed most of its line cannot pass, whatever its delivery', () => {
    for (const heard of [0, 1, 2]) {
      const partial = checked(heard, { score: 100 });
      for (const delivery of deliveries) {
        expect(overallWithWords(delivery, partial), `${heard}/6 at ${delivery}`).toBeLessThanOrEqual(
          INCOMPLETE_CAP,
        );
      }
    }
    expect(INCOMPLETE_CAP).toBeLessThan(PASS_SCORE);
  });

  it('a take that said every word but none clearly cannot pass, whatever its delivery', () => {
    const whole = checked(6);
    if (whole.status !== 'checked') throw new Error('checked() makes checked takes');
    const unclear = { ...whole, words: whole.words.map((w) => ({ ...w, state: 'off' as const })) };
    for (const delivery of deliveries) {
      expect(overallWithWords(delivery, unclear), `delivery ${delivery}`).toBeLessThanOrEqual(INCOMPLETE_CAP);
    }
    // One word that came through clearly is enough for the take to be heard as the line.
    const oneClear = {
      ...unclear,
      words: unclear.words.map((w, i) => (i === 0 ? { ...w, state: 'said' as const } : w)),
    };
    expect(overallWithWords(100, oneClear)).toBeGreaterThanOrEqual(PASS_SCORE);
  });

  it('a complete line keeps a score driven by its delivery: better delivery, higher score, the words only add', () => {
    const whole = checked(6);
    const overall = deliveries.map((d) => overallWithWords(d, whole));
    for (let i = 1; i < overall.length; i++) expect(overall[i]).toBeGreaterThan(overall[i - 1]);
    // A complete, well-said line passes when its delivery does.
    expect(overallWithWords(PASS_SCORE, whole)).toBeGreaterThanOrEqual(PASS_SCORE);
    // Not capped: the best delivery with every word reaches the top.
    expect(overallWithWords(100, whole)).toBe(100);
  });

  it('a line whose words were not checked is scored on its delivery alone', () => {
    const unchecked: WordCheck[] = [
      { status: 'unchecked', reason: 'language', language: 'de' },
      { status: 'unchecked', reason: 'engine_missing', language: 'en' },
      { status: 'unchecked', reason: 'engine_failed', language: 'zh' },
      { status: 'unchecked', reason: 'no_text', language: 'en' },
    ];
    for (const words of [...unchecked, null, undefined]) {
      for (const delivery of deliveries) expect(overallWithWords(delivery, words)).toBe(delivery);
    }
  });

  it('withWords sets the words and the overall and leaves every other figure as it was', () => {
    const delivery = speechScore({ overall: 88 });
    const scored = withWords(delivery, checked(6, { otherLine: true }));
    expect(scored.overall).toBe(OTHER_LINE_CAP);
    expect(scored.words?.status).toBe('checked');
    const { overall: _a, words: _b, ...rest } = scored;
    const { overall: _c, ...before } = delivery;
    expect(rest).toEqual(before);
    expect(wordsSubScore(scored)).toBe(100);
    expect(
      wordsSubScore(withWords(delivery, { status: 'unchecked', reason: 'language', language: 'de' })),
    ).toBeNull();
  });

  it('a take without speech stays "no score" (its overall unchanged) and still carries the check', () => {
    const silent = speechScore({
      overall: 0,
      quality: { speechDetected: false, tooQuiet: true, clipped: false, snrDb: null },
    });
    const scored = withWords(silent, checked(0, { otherLine: true, score: 0 }));
    expect(scored.overall).toBe(0);
    expect(scored.words?.status).toBe('checked');
  });

  it('refuses to fold the words in twice', () => {
    const once = withWords(speechScore({ overall: 70 }), checked(6));
    expect(() => withWords(once, checked(6))).toThrow(/already carries a word check/);
  });
});
