import type { Lang } from './format';

/**
 * Each language's name in itself ("中文", "English"), so anyone can find theirs, with the BCP 47
 * tag a screen reader pronounces it by: the app's language switch (src/app/ui/language-toggle.tsx)
 * and the phone pages' (server/h5/lang.ts).
 */
export const LANGUAGE_NAMES = {
  zh: { label: '中文', tag: 'zh-CN' },
  en: { label: 'English', tag: 'en' },
} as const satisfies Record<Lang, { label: string; tag: string }>;
