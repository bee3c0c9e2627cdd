import { coreMessages } from '../../../src/app/i18n/messages/core';
import { screensMessages } from '../../../src/app/i18n/messages/screens';

const zh = {
  ...(coreMessages.zh as Record<string, string>),
  ...(screensMessages.zh as Record<string, string>),
};

/** The Chinese UI text of a catalogue key (the UI speaks Chinese first), so tests find what users see. */
export function zhText(key: string, vars: Record<string, string | number> = {}): string {
  const s = zh[key];
  if (s === undefined) throw new Error(`no zh message "${key}" in the catalogues`);
  return s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}
