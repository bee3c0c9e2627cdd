import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { clearLocalData } from '../../stores/session';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { useT } from '../common/use-t';
import { kioskIdleMs, warningMs } from './idle-config';
import { useIdleTimer } from './use-idle-timer';

// Pages and the layout may both mount the watcher (while the layout change lands); only the oldest
// mounted instance runs, and the next one takes over when it unmounts: never two timers, never none.
const holders = signal<readonly symbol[]>([]);

export interface KioskIdleProps {
  part: 'prpo' | 'prpt';
}

/**
 * Returns a kiosk to standby after the idle time and logs out (clears the token, local and session
 * storage and every store), so the next visitor never sees someone else's session or recordings.
 * Warns with a countdown for the last seconds; any touch or key keeps the session.
 */
export function KioskIdle({ part }: KioskIdleProps) {
  const { t } = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const me = useOwner();
  const idleMs = kioskIdleMs();
  const onStandby = pathname.endsWith('/standby');
  const { secondsLeft, poke } = useIdleTimer(
    idleMs,
    warningMs(idleMs),
    async () => {
      // Leave the guarded page first, then wipe: wiping first makes the auth guard of the page still on
      // screen redirect to `{prefix}/login?redirect=…` instead of standby (seen in journey 4).
      await navigate(`/${part}/standby`, { replace: true, flushSync: true });
      clearLocalData();
    },
    me && !onStandby,
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

function useOwner(): boolean {
  useSignals();
  const [id] = useState(() => Symbol('kiosk-idle'));
  useEffect(() => {
    holders.value = [...holders.peek(), id];
    return () => {
      holders.value = holders.peek().filter((h) => h !== id);
    };
  }, [id]);
  return holders.value[0] === id;
}
