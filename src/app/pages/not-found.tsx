import { useSignals } from '@preact/signals-react/runtime';
import { Link, useLocation } from 'react-router-dom';
import { t } from '../i18n';
import { PlaceholderPage } from '../lib/placeholder-page';

export default function NotFoundPage() {
  useSignals();
  const { pathname } = useLocation();
  return (
    <PlaceholderPage titleKey="page.notFound">
      <p>{t('notFound.body', { path: pathname })}</p>
      <Link to="/">{t('notFound.home')}</Link>
    </PlaceholderPage>
  );
}
