import { describe, expect, it } from 'vitest';
import { fact, word } from '../../../src/i18n';
import { statementsEn } from '../../../src/i18n/statements.en';
import { statementsZh } from '../../../src/i18n/statements.zh';
import { laterEn as en } from '../../../src/app/i18n/messages/later.en';
import { laterZh as zh } from '../../../src/app/i18n/messages/later.zh';
import { firstEn } from '../../../src/app/i18n/messages/first.en';
import { firstZh } from '../../../src/app/i18n/messages/first.zh';

// Every sentence a learner reads is plain (docs/statements.*.md): no unexplained technical term, and
// one name per figure in each language.
const catalogues = { zh: [statementsZh, zh, firstZh], en: [statementsEn, en, firstEn] };
const texts = (lang: 'zh' | 'en') =>
  catalogues[lang].flatMap((c) => Object.values(c as Record<string, string>));

describe('plain words in the learner-facing catalogues', () => {
  it('no arousal, valence, median or cold reading', () => {
    expect(texts('zh').length).toBeGreaterThan(100);
    for (const s of texts('zh')) expect(s).not.toMatch(/唤醒度|效价|中位|冷读/);
    for (const s of texts('en')) expect(s).not.toMatch(/arousal|valence|median|read cold|cold reading/i);
  });

  it('one name per sub-score: the radar, the areas, the topics and the summaries agree', () => {
    const names = {
      zh: { emotion: '情绪', intonation: '语调', energy: '轻重', timing: '节奏', quality: '录音质量' },
      en: {
        emotion: 'emotion',
        intonation: 'intonation',
        energy: 'stress',
        timing: 'timing',
        quality: 'recording quality',
      },
    };
    for (const lang of ['zh', 'en'] as const) {
      const app = lang === 'zh' ? zh : en;
      for (const [k, name] of Object.entries(names[lang])) {
        expect((app as Record<string, string>)[`score.${k}`].toLowerCase()).toBe(name);
        expect(word(fact(`area.${k}` as 'area.emotion'), lang).toLowerCase()).toBe(name);
      }
      expect(word(fact('topic.energy'), lang).toLowerCase()).toBe(names[lang].energy);
      expect(word(fact('topic.melody'), lang).toLowerCase()).toBe(names[lang].intonation);
      // The words' part of the score (src/audio/scoring/words.ts) has one name too, as an area and as a badge.
      const words = lang === 'zh' ? '台词' : 'words';
      expect(word(fact('area.words'), lang).toLowerCase()).toBe(words);
      expect(word(fact('words.subScore', { score: 80 }), lang).toLowerCase()).toMatch(
        new RegExp(`^${words}\\s?80$`),
      );
    }
    // The energy sub-score is never called "force" (the emotion's intensity) in either language.
    for (const s of texts('zh')) expect(s).not.toMatch(/力度/);
    for (const s of texts('en')) expect(s).not.toMatch(/\bforce\b|energy score/i);
  });

  it('counts read as plain English: "1 point", "question 1 right (1 of 4)" without "such as"', () => {
    expect(word(fact('report.secondTakes', { gain: 1 }), 'en')).toContain('1 point higher');
    const one = word(fact('report.answers.some', { which: '1', right: 1, scored: 4, prompt: 'Who?' }), 'en');
    expect(one).toBe('You got question 1 right (1 of 4): "Who?".');
  });
});
