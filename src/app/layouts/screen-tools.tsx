import { useSignals } from '@preact/signals-react/runtime';
import { LanguageToggle } from '../ui/language-toggle';
import { type Area, paths } from '../lib/paths';
import { useT } from '../i18n/use-t';
import { isLoggedIn, userInfo, viaQr } from '../stores/account';
import { useLogout } from '../stores/use-logout';
import { Button } from '../ui/button';
import styles from './screen-tools.module.css';

/**
 * The tools every screen of an area carries in the header band: the learner's name with log out (to
 * the area's standby) and sign out everywhere, and the language switch. After a QR login the name
 * reads "signed in as …" with "not you? sign out": whoever scanned first signed this screen in. The
 * two are separate items of the header, so that on a phone the switch sits beside the brand and the
 * account's tools take the row below (screen-tools.module.css).
 */
export function ScreenTools({ area }: { area: Area }) {
  useSignals();
  const { t } = useT();
  const logout = useLogout();
  const user = userInfo.value;
  return (
    <>
      {isLoggedIn.value ? (
        <div className={`${styles.account} no-print`}>
          {user?.nickname ? (
            <span className={styles.user} data-via-qr={viaQr.value || undefined}>
              {viaQr.value ? t('ui.qrSignedInAs', { name: user.nickname }) : user.nickname}
            </span>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => logout(paths.standby(area))}>
            {viaQr.value ? t('ui.notYou') : t('ui.logout')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => logout(paths.standby(area), { everywhere: true })}>
            {t('ui.logoutAll')}
          </Button>
        </div>
      ) : null}
      <div className={`${styles.language} no-print`}>
        <LanguageToggle />
      </div>
    </>
  );
}
