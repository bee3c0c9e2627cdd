import { useLocation, useNavigate } from 'react-router-dom';
import { type Area, paths } from '../../lib/paths';
import { leaveThenWipe } from '../../stores/use-logout';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { useT } from '../../i18n/use-t';
import { kioskIdleMs, warningMs } from './idle-config';
import { useIdleTimer } from './use-idle-timer';

export interface KioskIdleProps {
  /** The area the kiosk is in: it returns to that area's standby screen. */
  part: Area;
}

/**
 * Returns a kiosk to standby after the idle time and logs out (revokes the session on the server,
 * clears the token, local and session storage and every store), so the next visitor never sees someone else's session or recordings.
 * Warns with a countdown for the last seconds; any touch or key keeps the session.
 */
export function KioskIdle({ part }: KioskIdleProps) {
  const { t } = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const idleMs = kioskIdleMs();
  const onStandby = pathname.endsWith('/standby');
  const { secondsLeft, poke } = useIdleTimer(
    idleMs,
    warningMs(idleMs),
    // The same order as the logout button: revoke, leave the guarded page, then wipe.
    () => leaveThenWipe(navigate, paths.standby(part)),
    !onStandby,
  );
  return (
    <Modal
      open={secondsLeft !== null}
      title={t('idle.title')}
      onClose={poke}
      actions={
        <Button variant="primary" size="lg" onClick={poke}>
          {t('idle.stay')}
        </Button>
      }
    >
      <p aria-live="polite">{t('idle.body', { s: secondsLeft ?? 0 })}</p>
    </Modal>
  );
}
