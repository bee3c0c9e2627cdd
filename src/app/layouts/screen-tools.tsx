import { useSignals } from '@preact/signals-react/runtime';
import { LanguageToggle } from '../ui/language-toggle';
import type { Part } from '../features/part/part';
import { useT } from '../i18n/use-t';
import { isLoggedIn, userInfo, viaQr } from '../stores/account';
import { useLogout } from '../stores/use-logout';
import { Button } from '../ui/button';
import styles from './screen-tools.module.css';

/**
 * The tools every screen of a part carries in the header band: the learner's name with log out (to
 * the part's standby) and sign out everywhere, and the language switch. After a QR login the name
 * reads "signed in as …" with "not you? sign out": whoever scanned first signed this screen in.
 */
export function ScreenTools({ part }: { part: Part }) {
  useSignals();
  const { t } = useT();
  const logout = useLogout();
  const user = userInfo.value;
  return (
    <div className={`${styles.tools} no-print`}>
      {isLoggedIn.value ? (
        <>
          {user?.nickname ? (
            <span className={styles.user} data-via-qr={viaQr.value || undefined}>
              {viaQr.value ? t('ui.qrSignedInAs', { name: user.nickname }) : user.nickname}
            </span>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => logout(`/${part}/standby`)}>
            {viaQr.value ? t('ui.notYou') : t('ui.logout')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => logout(`/${part}/standby`, { everywhere: true })}>
            {t('ui.logoutAll')}
          </Button>
        </>
      ) : null}
      <LanguageToggle />
    </div>
  );
}
