import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearLocalData } from './session';

/** Spec §4: logout clears all local storage, removes the token cookie and goes to a chosen path (default /). */
export function useLogout(): (to?: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (to = '/') => {
      // Leave the page first, then wipe. Wiping first let the auth guard of the guarded page still on
      // screen redirect to `{prefix}/login?redirect=…` before the navigation landed, so "log out" from
      // /prpo/movies ended on the login page instead of standby (journey test). Wiped even if it fails.
      void Promise.resolve(navigate(to, { replace: true, flushSync: true }))
        .catch((e: unknown) => console.error('[logout] navigation failed', e))
        .finally(clearLocalData);
    },
    [navigate],
  );
}
