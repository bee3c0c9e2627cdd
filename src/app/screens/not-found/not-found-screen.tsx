import { useLocation } from 'react-router-dom';
import { areaOf, paths } from '../../lib/paths';
import { ButtonLink } from '../../ui/button';
import { ArrowLeftIcon } from '../../ui/icons';
import { EmptyState } from '../../ui/states';
import { useT } from '../../i18n/use-t';

/** A friendly 404 with the way back to the home of the part the address belongs to. */
export function NotFoundScreen() {
  const { t } = useT();
  const { pathname } = useLocation();
  const area = areaOf(pathname);
  return (
    <div className="screen screen--narrow" data-screen="not-found">
      <h1 className="visually-hidden">{t('page.notFound')}</h1>
      <EmptyState
        title={t('nf.title')}
        body={t('nf.body', { path: pathname })}
        action={
          <ButtonLink to={paths.home(area)} variant="primary" size="lg" icon={<ArrowLeftIcon />}>
            {t('nf.home', { part: t(`part.${area}.name`) })}
          </ButtonLink>
        }
      />
    </div>
  );
}

/** The route's screen: any path no route matches. */
export default NotFoundScreen;
