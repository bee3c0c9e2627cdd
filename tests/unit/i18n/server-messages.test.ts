import { describe, expect, test } from 'vitest';
import { argNames, LANGS } from '../../../src/i18n';
import { isServerMessageId, SERVER_MESSAGE_IDS, SERVER_MESSAGES } from '../../../src/i18n/server-messages';
import { SERVER_CATALOGUE, serverText } from '../../../src/i18n/server-text';
import { STATEMENTS } from '../../../src/i18n/statements';
import { ERROR_IDS } from '../../../src/i18n/error-rows';

const CJK = /[\u3400-\u9fff]/;

describe("the services' answers (src/i18n/server-messages.ts)", () => {
  test('the catalogue holds the answers (the checks below read a full list)', () => {
    expect(SERVER_MESSAGE_IDS.length).toBeGreaterThan(80);
  });

  test.each(LANGS)('every answer in %s reads exactly the values it declares', (lang) => {
    for (const id of SERVER_MESSAGE_IDS) {
      const declared = new Set<string>(SERVER_MESSAGES[id]);
      expect([...argNames(SERVER_CATALOGUE[lang][id])].sort(), `${lang} ${id}`).toEqual([...declared].sort());
    }
  });

  test.each(LANGS)('every answer words in %s with sample values, in its own script', (lang) => {
    for (const id of SERVER_MESSAGE_IDS) {
      const values = Object.fromEntries(SERVER_MESSAGES[id].map((name) => [name, 'x']));
      const text = serverText(id, lang, values);
      expect(text.length, id).toBeGreaterThan(0);
      expect(text, id).not.toMatch(/[{}]/);
      if (lang === 'en') expect(text, id).not.toMatch(CJK);
      else expect(text, id).toMatch(CJK);
    }
  });

  test('a select words its case in each language (the encoding a take was sent in)', () => {
    const pcm = { kind: 'pcm', bits: '24', tag: '1' };
    const other = { kind: 'other', bits: '8', tag: '85' };
    expect(serverText('upload.encodingGot', 'zh', pcm)).toContain('收到 24 位 PCM');
    expect(serverText('upload.encodingGot', 'en', pcm)).toContain('unsupported encoding 24-bit PCM');
    expect(serverText('upload.encodingGot', 'zh', other)).toContain('压缩编码 85');
    expect(serverText('input.mustBe', 'en', { type: 'int' })).toBe('must be an integer');
    expect(serverText('input.mustBe', 'zh', { type: 'date' })).toBe('必须是date');
  });

  test('no id is also a statement or an error row (one id, one sentence)', () => {
    for (const id of SERVER_MESSAGE_IDS) {
      expect(Object.hasOwn(STATEMENTS, id), id).toBe(false);
      expect((ERROR_IDS as string[]).includes(id), id).toBe(false);
    }
    expect(isServerMessageId('input.required')).toBe(true);
    expect(isServerMessageId('error.notFound')).toBe(false);
  });
});
