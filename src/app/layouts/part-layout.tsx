import { useSignals } from '@preact/signals-react/runtime';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { t } from '../i18n';
import { type Part, PartContext } from '../features/part/part';
import { useDeferredImport } from '../lib/use-deferred-import';
import { ScreenTools } from './screen-tools';

/** The idle watcher starts counting after the first render, so its code is not in the entry. */
const loadKioskIdle = () => import('../features/kiosk/kiosk-idle');

/**
 * The frame every screen of a part sits in (spec §2): the header band with the brand and the screen
 * tools (learner, log out, language), the kiosk idle watcher, and the part for the screens below.
 * Standby draws its own full-screen chrome (the header is hidden there, see styles/layout.css).
 */
export function PartLayout({ part }: { part: Part }) {
  useSignals();
  const { pathname } = useLocation();
  const kiosk = useDeferredImport('kiosk', loadKioskIdle, pathname);
  return (
    <div className={`layout layout-${part}`} data-layout={part}>
      <header className="layout-header" data-layout-header>
        <Link to={`/${part}`} className="layout-brand">
          {t('app.name')} · {t(part === 'prpo' ? 'part.prpo' : 'part.prpt')}
        </Link>
        <ScreenTools part={part} />
      </header>
      <main className="layout-main">
        <PartContext.Provider value={part}>
          <Outlet />
        </PartContext.Provider>
      </main>
      {kiosk ? <kiosk.KioskIdle part={part} /> : null}
    </div>
  );
}
