import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { lang, type MessageKey, t } from '../i18n';

/** Sets `document.title` to the page's title (in the current language) while the page is shown. */
export function usePageTitle(key: MessageKey): string {
  useSignals();
  const l = lang.value;
  const title = t(key, undefined, l);
  const appName = t('app.name', undefined, l);
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
  return title;
}
