import { signal } from '@preact/signals-react';
import { coreMessages } from './messages/core';
import { screensMessages } from './messages/screens';

/**
 * A tiny typed i18n: `t(key, vars)` with `{name}` placeholders, a language signal (Chinese first) and a
 * persisted choice. Catalogues are plain objects merged here, so each owner edits only their own file.
 */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const LANG_STORAGE_KEY = 'app.lang';

const catalogues = {
  zh: { ...coreMessages.zh, ...screensMessages.zh },
  en: { ...coreMessages.en, ...screensMessages.en },
};
export type MessageKey = keyof typeof catalogues.zh;

function storedLang(): Lang {
  try {
    const v = localStorage.getItem(LANG_STORAGE_KEY);
    return v === 'en' || v === 'zh' ? v : 'zh';
  } catch {
    return 'zh'; // storage blocked (private mode): fall back to the default
  }
}

export const lang = signal<Lang>(storedLang());

function applyDocumentLang(l: Lang) {
  if (typeof document !== 'undefined') document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
}

export function setLang(l: Lang): void {
  lang.value = l;
  persistLang();
  applyDocumentLang(l);
}

/** Writes the current choice again (used after local data is wiped: the UI language is not user data). */
export function persistLang(): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang.peek());
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

export function t(key: MessageKey, vars?: Record<string, string | number>, l: Lang = lang.value): string {
  const text: string = catalogues[l][key] ?? catalogues.zh[key] ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
