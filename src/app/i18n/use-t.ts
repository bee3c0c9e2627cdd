import { useSignals } from '@preact/signals-react/runtime';
import { type Lang, lang, type MessageKey, t } from './index';

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/**
 * The translator for a component, bound to the current language. Reading the language signal here
 * subscribes the component, so a language switch re-renders every screen at once.
 */
export function useT(): { t: Translate; lang: Lang } {
  useSignals();
  const l = lang.value;
  return { t: (key, vars) => t(key, vars, l), lang: l };
}
