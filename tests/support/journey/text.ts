import { firstZh } from '../../../src/app/i18n/messages/first.zh';
import { laterZh } from '../../../src/app/i18n/messages/later.zh';

const zh: Record<string, string> = { ...firstZh, ...laterZh };

/** The Chinese UI text of a catalogue key (the UI speaks Chinese first), so tests find what users see. */
export function zhText(key: string, vars: Record<string, string | number> = {}): string {
  const s = zh[key];
  if (s === undefined) throw new Error(`no zh message "${key}" in the catalogues`);
  return s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}
