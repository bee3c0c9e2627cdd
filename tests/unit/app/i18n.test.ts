import { afterEach, expect, test } from 'vitest';
import { LANG_STORAGE_KEY, lang, setLang, t } from '../../../src/app/i18n';
import { coreMessages } from '../../../src/app/i18n/messages/core';
import { screensMessages } from '../../../src/app/i18n/messages/screens';

afterEach(() => setLang('zh'));

test('Chinese by default, English on request, with {placeholders} filled', () => {
  expect(lang.value).toBe('zh');
  expect(t('toast.sessionExpired')).toBe('登录信息已失效');
  expect(t('notFound.body', { path: '/x' })).toBe('您访问的地址 /x 不存在。');
  setLang('en');
  expect(t('notFound.body', { path: '/x' })).toBe('There is no page at /x.');
  expect(document.documentElement.lang).toBe('en');
});

test('the language choice is persisted', () => {
  setLang('en');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
});

test('both catalogues have English for every Chinese key, and no key is claimed by both files', () => {
  for (const m of [coreMessages, screensMessages]) {
    expect(Object.keys(m.en).sort()).toEqual(Object.keys(m.zh).sort());
  }
  const shared = Object.keys(coreMessages.zh).filter((k) => k in screensMessages.zh);
  expect(shared).toEqual([]);
});
