import { describe, expect, it } from 'vitest';
import { wordsNotCheckedFor } from '../../server/words';

// A server without pocketsphinx: its English films are told "not set up here" before the first take.
// Set before the first look (the engine's presence is read once per process; this file has its own).
process.env.WORDS_EN_BIN = '/nonexistent/pocketsphinx_batch';

describe('whether a film’s words will be checked, before any take', () => {
  it('a language without a model, a film declaring none, and an English film without its engine', () => {
    expect(wordsNotCheckedFor('de')).toEqual({ reason: 'language', language: 'de' });
    expect(wordsNotCheckedFor('pl-PL')).toEqual({ reason: 'language', language: 'pl' });
    expect(wordsNotCheckedFor(null)).toEqual({ reason: 'language', language: null });
    expect(wordsNotCheckedFor('en')).toEqual({ reason: 'engine_missing', language: 'en' });
    // Mandarin's runtime and model are in place here (tests/server/words-zh-missing.test.ts has it without).
    expect(wordsNotCheckedFor('zh')).toBeNull();
  });
});
