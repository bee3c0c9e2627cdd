import { useSignals } from '@preact/signals-react/runtime';
import { LanguageToggle } from '../ui/language-toggle';
import { type Area, paths } from '../lib/paths';
import { useT } from '../i18n/use-t';
import { isLoggedIn, userInfo } from '../stores/account';
import { useLogout } from '../stores/use-logout';
import { Button } from '../ui/button';
import styles from './screen-tools.module.css';

/**
 * The tools every screen of an area carries in the header band: the learner's name with log out (to
 * the area's standby), and the language switch.
 */
export function ScreenTools({ area }: { area: Area }) {
  useSignals();
  const { t } = useT();
  const logout = useLogout();
  const user = userInfo.value;
  return (
    <div className={`${styles.tools} no-print`}>
      {isLoggedIn.value ? (
        <>
          {user?.nickname ? <span className={styles.user}>{user.nickname}</span> : null}
          <Button variant="ghost" size="sm" onClick={() => logout(paths.standby(area))}>
            {t('ui.logout')}
          </Button>
        </>
      ) : null}
      <LanguageToggle />
    </div>
  );
}
