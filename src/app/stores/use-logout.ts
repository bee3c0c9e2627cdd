import { useCallback } from 'react';
import { flushSync } from 'react-dom';
import { type NavigateFunction, useNavigate } from 'react-router-dom';
import { clearLocalData, revokeSession } from './session';

/**
 * Logout's order: ask the server to revoke the session (the token is read at once), leave the page,
 * then wipe. Wiping first let the auth guard of the guarded page still on screen redirect to
 * `{prefix}/login?redirect=…` before the navigation landed, so "log out" from /prpo/movies ended on
 * the login page instead of standby (journeys 3 and 4). The navigation is rendered before the wipe:
 * React's flushSync renders the app's BrowserRouter update at once (app.tsx turns its transitions
 * off; React Router's own `flushSync` option works only in a data router, which tests use, and whose
 * navigation finishes when its promise does). Wiped even if the navigation fails.
 */
export async function leaveThenWipe(
  navigate: NavigateFunction,
  to: string,
  opts: { everywhere?: boolean } = {},
): Promise<void> {
  void revokeSession(opts);
  try {
    let pending: unknown;
    flushSync(() => {
      pending = navigate(to, { replace: true, flushSync: true });
    });
    await pending;
  } catch (e) {
    console.error('[logout] navigation failed', e);
  }
  clearLocalData();
}

/**
 * Spec §4: logout clears all local storage, removes the token cookie and goes to a chosen path (default
 * /). The server revokes the session too (POST /site_products/logout).
 */
export function useLogout(): (to?: string, opts?: { everywhere?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (to = '/', opts: { everywhere?: boolean } = {}) => {
      void leaveThenWipe(navigate, to, opts);
    },
    [navigate],
  );
}
