import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { lang, type MessageKey, t } from '../i18n';

/**
 * `document.title` claims. The route claims its title at priority 0 (LazyPage); a page may claim a more
 * specific one (a film's name) at a higher priority. The highest priority wins, then the latest claim,
 * whatever order React runs the effects in (e.g. both re-run when the language changes).
 */
interface Claim {
  text: string;
  priority: number;
  order: number;
}
const claims = new Set<Claim>();
let counter = 0;

function apply(): void {
  let best: Claim | undefined;
  for (const c of claims) {
    if (!best || c.priority > best.priority || (c.priority === best.priority && c.order > best.order))
      best = c;
  }
  if (best) document.title = best.text;
}

/** Claims `document.title` while the component is mounted. */
export function useDocumentTitle(text: string, priority = 1): void {
  useEffect(() => {
    const claim = { text, priority, order: counter++ };
    claims.add(claim);
    apply();
    return () => {
      claims.delete(claim);
      apply();
    };
  }, [text, priority]);
}

/** Sets the title to `<page title> · <app name>` in the current language; returns the page title. */
export function usePageTitle(key: MessageKey, priority = 1): string {
  useSignals();
  const l = lang.value;
  const title = t(key, undefined, l);
  useDocumentTitle(`${title} · ${t('app.name', undefined, l)}`, priority);
  return title;
}
