import type { ReactNode } from 'react';
import type { MessageKey } from '../i18n';
import { usePageTitle } from './page-title';

/**
 * A route's page until its screen is built: its own heading and title, so every route is visibly
 * distinct (the browser test checks the heading).
 */
export function PlaceholderPage({ titleKey, children }: { titleKey: MessageKey; children?: ReactNode }) {
  const title = usePageTitle(titleKey);
  return (
    <section className="page" data-page={titleKey}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}
