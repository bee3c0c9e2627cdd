import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { bus } from '../../api/bus';
import { t } from '../i18n';
import { isLoginPath, loginPathFor } from '../lib/paths';
import { clearLocalData } from './session';
import { toast } from './toast';

/**
 * The single listener for code 1002 (docs/api.md, "Conventions"), mounted once by the root layout: warn 登录信息已失效,
 * clear local data and the token, go to the prefix-aware login with a way back to the page.
 */
export function useSessionExpiry(): void {
  const navigate = useNavigate();
  const location = useLocation();
  // The listener is registered once; it reads the latest location through this ref.
  const here = useRef(location);
  here.current = location;

  useEffect(() => {
    const onExpired = () => {
      toast.warning(t('toast.sessionExpired'));
      clearLocalData();
      const { pathname, search } = here.current;
      if (isLoginPath(pathname)) return;
      navigate(loginPathFor(pathname + search), { replace: true });
    };
    bus.on('sessionExpired', onExpired);
    return () => bus.off('sessionExpired', onExpired);
  }, [navigate]);
}
