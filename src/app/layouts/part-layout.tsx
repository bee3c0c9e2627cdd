import { useSignals } from '@preact/signals-react/runtime';
import { Link, Outlet } from 'react-router-dom';
import { t } from '../i18n';
import type { Part } from '../router/route-table';
import { KioskIdle } from '../screens/kiosk/kiosk-idle';

/** The frame shared by one part's pages (spec §2). The screens work styles and fills it. */
export function PartLayout({ part }: { part: Part }) {
  useSignals();
  return (
    <div className={`layout layout-${part}`} data-layout={part}>
      <header className="layout-header" data-layout-header>
        <Link to={`/${part}`} className="layout-brand">
          {t('app.name')} · {t(part === 'prpo' ? 'part.prpo' : 'part.prpt')}
        </Link>
      </header>
      <main className="layout-main">
        <Outlet />
      </main>
      {/* Kiosk idle watcher (screens work): back to standby and logged out after inactivity. */}
      <KioskIdle part={part} />
    </div>
  );
}
