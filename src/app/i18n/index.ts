import { signal } from '@preact/signals-react';
import type { Emotion } from '../../api/contract';
import { EMOTION_LABELS } from '../../audio/scoring/labels';
import { coreMessages } from './messages/core';
import { dubMessages } from './messages/dub';
import { leadInMessages } from './messages/lead-in';
import { screensMessages } from './messages/screens';
import { watchDubMessages } from './messages/watch-dub';

/**
 * The client's one message catalogue: `t(key, vars)` with `{name}` placeholders, a language signal
 * (Chinese first) and a persisted choice. The catalogue is kept in a few files by area (messages/),
 * merged here into one key space; a test checks every key has both languages and none repeats.
 */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const LANG_STORAGE_KEY = 'app.lang';

const catalogues = {
  zh: {
    ...coreMessages.zh,
    ...screensMessages.zh,
    ...dubMessages.zh,
    ...watchDubMessages.zh,
    ...leadInMessages.zh,
  },
  en: {
    ...coreMessages.en,
    ...screensMessages.en,
    ...dubMessages.en,
    ...watchDubMessages.en,
    ...leadInMessages.en,
  },
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

/**
 * An emotion's name for a label: the one map the app, the server's H5 pages and the scripts share
 * (src/audio/scoring/labels.ts), capitalised in English where it stands alone.
 */
export function emotionLabel(emotion: Emotion, l: Lang = lang.value): string {
  const word = EMOTION_LABELS[emotion][l];
  return l === 'en' ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
