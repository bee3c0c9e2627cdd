import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { bus } from '../../api/bus';
import { t } from '../i18n';
import { isLoginPath, loginPathFor } from '../lib/paths';
import { clearLocalData } from './session';
import { takesEnded } from './takes-in-progress';
import { toast } from './toast';

/**
 * The single listener for code 1002 (docs/api.md, "Conventions"), mounted once by the root layout: warn 登录信息已失效,
 * clear local data and the token, go to the prefix-aware login with a way back to the page. A take
 * being recorded is let finish first (stores/takes-in-progress.ts): clearing the token would send the
 * guard to the login page and cut the take off; its windows are kept and sent after the next login.
 */
export function useSessionExpiry(): void {
  const navigate = useNavigate();
  const location = useLocation();
  // The listener is registered once; it reads the latest location through this ref.
  const here = useRef(location);
  here.current = location;

  useEffect(() => {
    let expiring = false;
    const onExpired = () => {
      toast.warning(t('toast.sessionExpired'));
      // Calls failing with 1002 while a take ends are one expiry.
      if (expiring) return;
      expiring = true;
      void takesEnded().then(() => {
        expiring = false;
        clearLocalData();
        const { pathname, search } = here.current;
        if (isLoginPath(pathname)) return;
        navigate(loginPathFor(pathname + search), { replace: true });
      });
    };
    bus.on('sessionExpired', onExpired);
    return () => bus.off('sessionExpired', onExpired);
  }, [navigate]);
}
