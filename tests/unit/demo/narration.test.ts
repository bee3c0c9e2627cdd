/**
 * The demo builder's guard for the English and Mandarin films (scripts/demo/narration.ts): a
 * subtitle must say what its recording says, so the word check is never measured against a line the
 * voice did not speak.
 */
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../scripts/demo/line-check-dataset';
import { checkNarrationScene, spokenWords } from '../../../scripts/demo/narration';
import type { NarrationScene } from '../../../scripts/demo/scenes/scene-types';

const transcript = (file: string, speaker: string, language: string, text: string): Transcript => ({
  file,
  speaker,
  language,
  text,
  licence: 'test',
});

const TRANSCRIPTS = new Map(
  [
    transcript('en/a.wav', 'reader', 'en', 'he was not an ill disposed young man'),
    transcript('en/b.wav', 'reader', 'en', 'had he married a more a amiable woman'),
    transcript('zh/c.wav', 'host', 'zh', '如今的楼市如同好莱坞大片'),
  ].map((t) => [t.file, t]),
);

function scene(lines: NarrationScene['lines'], language: 'en' | 'zh' = 'en'): NarrationScene {
  const text = { zh: '测试', en: 'test' };
  return {
    id: 'test-scene',
    title: '测试',
    titleEn: 'Test',
    language,
    synopsis: text,
    parts: ['prpt'],
    roles: [
      { name: 'Reader', voice: 'reader', description: text },
      { name: 'Host', voice: 'host', description: text },
    ],
    lines,
    questions: [],
    credit: 'test',
  };
}

const translation = { zh: '译文', en: 'gloss' };

describe('spokenWords', () => {
  it('ignores case, punctuation and hyphens, and keeps a Mandarin line as its characters', () => {
    expect(spokenWords('He was not an ill-disposed young man,')).toEqual(
      'he was not an ill disposed young man'.split(' '),
    );
    // Punctuation is dropped, not turned into a space: a punctuated Mandarin subtitle still equals its
    // unpunctuated transcript character for character.
    expect(spokenWords('如今的楼市，如同好莱坞大片。')).toEqual(spokenWords('如今的楼市如同好莱坞大片'));
    expect(spokenWords('如今的楼市，如同好莱坞大片。')).toEqual(['如今的楼市如同好莱坞大片']);
    expect(spokenWords('如今的楼市如同好莱坞')).not.toEqual(spokenWords('如今的楼市如同好莱坞大片'));
  });
});

describe('checkNarrationScene', () => {
  it('accepts a subtitle that says the transcript in written form', () => {
    const lines = [
      { file: 'en/a.wav', speaker: 'Reader', text: 'He was not an ill-disposed young man,', translation },
    ];
    expect(checkNarrationScene(scene(lines), TRANSCRIPTS).map((t) => t.file)).toEqual(['en/a.wav']);
  });

  it('refuses a subtitle with a word the voice does not say, or without one it does', () => {
    const changed = [
      { file: 'en/a.wav', speaker: 'Reader', text: 'He was not an ill-disposed old man,', translation },
    ];
    expect(() => checkNarrationScene(scene(changed), TRANSCRIPTS)).toThrow(/does not say the transcript/);
    const shorter = [
      { file: 'en/a.wav', speaker: 'Reader', text: 'He was not an ill-disposed man,', translation },
    ];
    expect(() => checkNarrationScene(scene(shorter), TRANSCRIPTS)).toThrow(/does not say the transcript/);
  });

  it("leaves out a reader's slip only when the scene declares exactly that slip", () => {
    const text = 'Had he married a more amiable woman,';
    const undeclared = [{ file: 'en/b.wav', speaker: 'Reader', text, translation }];
    expect(() => checkNarrationScene(scene(undeclared), TRANSCRIPTS)).toThrow(/does not say the transcript/);
    const declared = [
      { file: 'en/b.wav', speaker: 'Reader', text, translation, slip: { extra: 'a', note: 'slip' } },
    ];
    expect(checkNarrationScene(scene(declared), TRANSCRIPTS)).toHaveLength(1);
    const wrongSlip = [
      { file: 'en/b.wav', speaker: 'Reader', text, translation, slip: { extra: 'the', note: 'slip' } },
    ];
    expect(() => checkNarrationScene(scene(wrongSlip), TRANSCRIPTS)).toThrow(/plus the slip "the"/);
  });

  it("refuses another role's voice, another language and a file the set does not hold", () => {
    const otherVoice = [
      { file: 'en/a.wav', speaker: 'Host', text: 'He was not an ill-disposed young man,', translation },
    ];
    expect(() => checkNarrationScene(scene(otherVoice), TRANSCRIPTS)).toThrow(
      /is speaker reader, role Host is host/,
    );
    const otherLanguage = [
      { file: 'zh/c.wav', speaker: 'Host', text: '如今的楼市如同好莱坞大片', translation },
    ];
    expect(() => checkNarrationScene(scene(otherLanguage, 'en'), TRANSCRIPTS)).toThrow(
      /is in "zh", the film is in "en"/,
    );
    expect(checkNarrationScene(scene(otherLanguage, 'zh'), TRANSCRIPTS)).toHaveLength(1);
    const missing = [{ file: 'en/x.wav', speaker: 'Reader', text: 'x', translation }];
    expect(() => checkNarrationScene(scene(missing), TRANSCRIPTS)).toThrow(/not in transcripts.tsv/);
  });
});
