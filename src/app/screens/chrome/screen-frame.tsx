import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { isLoggedIn, userInfo } from '../../stores/account';
import { useLogout } from '../../stores/use-logout';
import { Button } from '../../ui/button';
import { LanguageToggle } from '../common/language-toggle';
import type { Part } from '../common/part';
import { useT } from '../common/use-t';
import { KioskIdle } from '../kiosk/kiosk-idle';
import styles from './screen-frame.module.css';

export interface ScreenFrameProps {
  part: Part;
  children: ReactNode;
  /** Standby draws its own full-screen chrome. */
  bare?: boolean;
}

/**
 * What every screen of a part carries besides its body: the language switch, the learner's name with
 * log out, and the kiosk idle watcher. Drawn in the layout's header band (positioned there by CSS),
 * so the client core's layout stays untouched.
 */
export function ScreenFrame({ part, children, bare }: ScreenFrameProps) {
  useSignals();
  const { t } = useT();
  const logout = useLogout();
  const user = userInfo.value;
  return (
    <>
      {bare ? null : (
        <div className={`${styles.tools} no-print`}>
          {isLoggedIn.value ? (
            <>
              {user?.nickname ? <span className={styles.user}>{user.nickname}</span> : null}
              <Button variant="ghost" size="sm" onClick={() => logout(`/${part}/standby`)}>
                {t('ui.logout')}
              </Button>
            </>
          ) : null}
          <LanguageToggle />
        </div>
      )}
      <KioskIdle part={part} />
      {children}
    </>
  );
}
