import { afterEach, expect, test } from 'vitest';
import { emotionLabel, LANG_STORAGE_KEY, lang, setLang, t } from '../../../src/app/i18n';
import { EMOTION_LABELS } from '../../../src/audio/scoring/labels';
import { coreMessages } from '../../../src/app/i18n/messages/core';
import { dubMessages } from '../../../src/app/i18n/messages/dub';
import { screensMessages } from '../../../src/app/i18n/messages/screens';

afterEach(() => setLang('zh'));

test('Chinese by default, English on request, with {placeholders} filled', () => {
  expect(lang.value).toBe('zh');
  expect(t('toast.sessionExpired')).toBe('登录信息已失效');
  expect(t('nf.body', { path: '/x' })).toBe('这个地址没有对应的页面：/x');
  setLang('en');
  expect(t('nf.body', { path: '/x' })).toBe('No page lives at this address: /x');
  expect(document.documentElement.lang).toBe('en');
});

test('the language choice is persisted', () => {
  setLang('en');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
});

test('every file of the catalogue has English for every Chinese key, and no key is in two files', () => {
  const files = [coreMessages, screensMessages, dubMessages];
  for (const m of files) {
    expect(Object.keys(m.zh).length).toBeGreaterThan(0);
    expect(Object.keys(m.en).sort()).toEqual(Object.keys(m.zh).sort());
  }
  const keys = files.flatMap((m) => Object.keys(m.zh));
  expect(keys.length).toBe(new Set(keys).size);
});

test('emotion names come from the one label map the server and scripts share', () => {
  const emotions = Object.keys(EMOTION_LABELS) as (keyof typeof EMOTION_LABELS)[];
  expect(emotions).toHaveLength(7);
  for (const e of emotions) {
    expect(emotionLabel(e, 'zh')).toBe(EMOTION_LABELS[e].zh);
    expect(emotionLabel(e, 'en').toLowerCase()).toBe(EMOTION_LABELS[e].en);
  }
  expect(emotionLabel('anger', 'en')).toBe('Anger');
  setLang('en');
  expect(emotionLabel('neutral')).toBe('Neutral');
});
