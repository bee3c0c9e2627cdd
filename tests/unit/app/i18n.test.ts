import { afterEach, expect, test, vi } from 'vitest';
import { LANG_STORAGE_KEY, lang, setLang, t } from '../../../src/app/i18n';
import { emotionLabel } from '../../../src/app/i18n/emotion-label';
import { firstEn } from '../../../src/app/i18n/messages/first.en';
import { firstZh } from '../../../src/app/i18n/messages/first.zh';
import { laterEn } from '../../../src/app/i18n/messages/later.en';
import { laterZh } from '../../../src/app/i18n/messages/later.zh';
import { EMOTION_LABELS } from '../../../src/audio/scoring/labels';

const FIRST_EN = '../../../src/app/i18n/messages/first.en';

afterEach(async () => {
  await setLang('zh');
  vi.doUnmock(FIRST_EN);
  vi.restoreAllMocks();
});

/** The i18n module as the app starts it: only the first tier in Chinese (tests/unit/setup.ts loads it all). */
async function freshI18n() {
  vi.resetModules();
  return import('../../../src/app/i18n');
}

test('Chinese by default, English on request, with {placeholders} filled', async () => {
  expect(lang.value).toBe('zh');
  expect(t('toast.sessionExpired')).toBe('登录信息已失效');
  expect(t('nf.body', { path: '/x' })).toBe('这个地址没有对应的页面：/x');
  await setLang('en');
  expect(t('nf.body', { path: '/x' })).toBe('No page lives at this address: /x');
  expect(document.documentElement.lang).toBe('en');
});

test('the language choice is persisted', async () => {
  await setLang('en');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
});

test('each tier has English for every Chinese key, and no key is in both tiers', () => {
  const tiers = [
    { zh: firstZh, en: firstEn },
    { zh: laterZh, en: laterEn },
  ];
  for (const m of tiers) {
    expect(Object.keys(m.zh).length).toBeGreaterThan(0);
    expect(Object.keys(m.en).sort()).toEqual(Object.keys(m.zh).sort());
  }
  const keys = tiers.flatMap((m) => Object.keys(m.zh));
  expect(keys.length).toBe(new Set(keys).size);
});

test('English arrives before the switch: the language changes only once its messages are here', async () => {
  const i18n = await freshI18n();
  expect(i18n.lang.value).toBe('zh');
  const switching = i18n.setLang('en');
  expect(i18n.lang.value).toBe('zh');
  await switching;
  expect(i18n.lang.value).toBe('en');
  expect(i18n.t('common.loading')).toBe('Loading…');
});

test('a later tier is loaded on request, and a switch brings it in the new language too', async () => {
  const i18n = await freshI18n();
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(i18n.t('dub.title')).toBe('dub.title');
  expect(error).toHaveBeenCalledWith(expect.stringContaining('"dub.title" is not loaded'));
  await i18n.loadMessages('later');
  expect(i18n.t('dub.title')).toBe('配音');
  await i18n.setLang('en');
  expect(i18n.t('dub.title')).toBe('Dub');
});

test('a tier asked for while a switch loads comes in the new language before the switch lands', async () => {
  const i18n = await freshI18n();
  const switching = i18n.setLang('en');
  const later = i18n.loadMessages('later');
  await Promise.all([switching, later]);
  expect(i18n.lang.value).toBe('en');
  expect(i18n.t('dub.title')).toBe('Dub');
});

test('the last choice wins: a switch still loading never lands after a later one', async () => {
  const i18n = await freshI18n();
  const toEnglish = i18n.setLang('en');
  await i18n.setLang('zh');
  await toEnglish;
  expect(i18n.lang.value).toBe('zh');
  expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('zh');
});

test('a switch whose messages cannot load keeps the language, and the next press loads them', async () => {
  vi.doMock(FIRST_EN, () => {
    throw new Error('network down');
  });
  const i18n = await freshI18n();
  await expect(i18n.setLang('en')).rejects.toThrow();
  expect(i18n.lang.value).toBe('zh');
  vi.doUnmock(FIRST_EN);
  await i18n.setLang('en');
  expect(i18n.lang.value).toBe('en');
  expect(i18n.t('common.loading')).toBe('Loading…');
});

test('emotion names come from the one label map the server and scripts share', async () => {
  const emotions = Object.keys(EMOTION_LABELS) as (keyof typeof EMOTION_LABELS)[];
  expect(emotions).toHaveLength(7);
  for (const e of emotions) {
    expect(emotionLabel(e, 'zh')).toBe(EMOTION_LABELS[e].zh);
    expect(emotionLabel(e, 'en').toLowerCase()).toBe(EMOTION_LABELS[e].en);
  }
  expect(emotionLabel('anger', 'en')).toBe('Anger');
  await setLang('en');
  expect(emotionLabel('neutral')).toBe('Neutral');
});
