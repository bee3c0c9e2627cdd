import { useSignals } from '@preact/signals-react/runtime';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { t } from '../i18n';
import { type Area, AreaContext, paths } from '../lib/paths';
import { useDeferredImport } from '../lib/use-deferred-import';
import { ScreenTools } from './screen-tools';

/** The idle watcher starts counting after the first render, so its code is not in the entry. */
const loadKioskIdle = () => import('../features/kiosk/kiosk-idle');

/**
 * The frame every screen of an area sits in: the header band with the brand and the screen tools
 * (learner, log out, language), the kiosk idle watcher, and the area for the screens below.
 * Standby draws its own full-screen chrome (the header is hidden there, see styles/layout.css).
 */
export function PartLayout({ area }: { area: Area }) {
  useSignals();
  const { pathname } = useLocation();
  const kiosk = useDeferredImport('kiosk', loadKioskIdle, pathname);
  return (
    <div className={`layout layout-${area}`} data-layout={area}>
      <header className="layout-header" data-layout-header>
        <Link to={paths.home(area)} className="layout-brand">
          {t('app.name')} · {t(`part.${area}`)}
        </Link>
        <ScreenTools area={area} />
      </header>
      <main className="layout-main">
        <AreaContext.Provider value={area}>
          <Outlet />
        </AreaContext.Provider>
      </main>
      {kiosk ? <kiosk.KioskIdle part={area} /> : null}
    </div>
  );
}
