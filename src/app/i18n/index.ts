import { signal } from '@preact/signals-react';
import { firstZh } from './messages/first.zh';
import type { laterZh } from './messages/later.zh';
import { setErrorRows } from '../../i18n/errors';
import type { MessageTier } from './tiers';

export { MESSAGE_TIERS, type MessageTier } from './tiers';

/**
 * The client's one message catalogue: `t(key, vars)` with `{name}` placeholders, a language signal
 * (Chinese first) and a persisted choice. One key space in two tiers (messages/), each defined once:
 * - `first`: the frame and the screens on the first path. Its Chinese ships in the entry chunk; its
 *   English loads when the language is English.
 * - `later`: the other screens' words, loaded beside those screens (router/routes.tsx).
 * A language switch loads every tier already asked for in the new language before the signal
 * changes, so `t()` stays synchronous and a screen never shows a key or a mix of languages.
 */
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const LANG_STORAGE_KEY = 'app.lang';

export type MessageKey = keyof typeof firstZh | keyof typeof laterZh;
type Messages = Partial<Record<MessageKey, string>>;

type TierLang = `${MessageTier}.${Lang}`;
/** Every tier and language but the one in the entry, each its own chunk. */
const LOADERS: Record<Exclude<TierLang, 'first.zh'>, () => Promise<Messages>> = {
  // The shared catalogue's English error rows come with the first English messages.
  'first.en': () =>
    Promise.all([import('./messages/first.en'), import('../../i18n/errors.en')]).then(([m, e]) => {
      setErrorRows('en', e.errorsEn);
      return m.firstEn;
    }),
  'later.zh': () => import('./messages/later.zh').then((m) => m.laterZh),
  'later.en': () => import('./messages/later.en').then((m) => m.laterEn),
};

const catalogues: Record<Lang, Messages> = { zh: { ...firstZh }, en: {} };
const loaded = new Set<TierLang>(['first.zh']);
/** Loads on their way; a failed one is forgotten, so a retry (the chunk error's button) runs it again. */
const loading = new Map<TierLang, Promise<void>>();
/** Tiers some screen has asked for: a language switch brings all of them. */
const wanted = new Set<MessageTier>(['first']);

/** The language stored by an earlier visit (the app applies it at start with `setLang`). */
export function storedLang(): Lang {
  try {
    const v = localStorage.getItem(LANG_STORAGE_KEY);
    return v === 'en' || v === 'zh' ? v : 'zh';
  } catch {
    return 'zh'; // storage blocked (private mode): fall back to the default
  }
}

/** Starts in Chinese, the one language whose first tier is already here; main.tsx applies the stored one. */
export const lang = signal<Lang>('zh');

/**
 * Loads a tier's messages in a language (the current one unless told) and keeps asking for the tier
 * in any language switched to later. Resolves at once when they are here.
 */
export function loadMessages(tier: MessageTier, l: Lang = lang.peek()): Promise<void> {
  wanted.add(tier);
  const id: TierLang = `${tier}.${l}`;
  if (loaded.has(id)) return Promise.resolve();
  let load = loading.get(id);
  if (!load) {
    // `first.zh` is loaded from the start, so every id that gets here has a loader.
    load = LOADERS[id as keyof typeof LOADERS]().then(
      (messages) => {
        Object.assign(catalogues[l], messages);
        loaded.add(id);
        loading.delete(id);
      },
      (e: unknown) => {
        loading.delete(id);
        throw e;
      },
    );
    loading.set(id, load);
  }
  return load;
}

const missingIn = (l: Lang) => [...wanted].filter((tier) => !loaded.has(`${tier}.${l}`));

function applyDocumentLang(l: Lang) {
  if (typeof document !== 'undefined') document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
}

function apply(l: Lang) {
  lang.value = l;
  persistLang();
  applyDocumentLang(l);
}

let switches = 0;

/**
 * Switches the language once every tier asked for so far is loaded in it (at once when they are).
 * The last call wins: a switch still loading when another is asked for never lands. Rejects, leaving
 * the language as it was, when a tier cannot be loaded.
 */
export async function setLang(l: Lang): Promise<void> {
  const ticket = ++switches;
  // A tier asked for while this one loads (a screen opened meanwhile) is brought too.
  for (let missing = missingIn(l); missing.length; missing = missingIn(l)) {
    await Promise.all(missing.map((tier) => loadMessages(tier, l)));
    if (ticket !== switches) return;
  }
  if (ticket === switches) apply(l);
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
  const text = catalogues[l][key] ?? catalogues.zh[key];
  if (text === undefined) {
    // A key of a tier nobody loaded: tests/unit/architecture/first-path-messages.test.ts keeps the
    // first path off the later tier; in development say so where it shows.
    if (import.meta.env.DEV) console.error(`[i18n] "${key}" is not loaded (its tier was never asked for)`);
    return key;
  }
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
