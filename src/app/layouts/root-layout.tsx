import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { watchTokenCookie } from '../stores/account';
import { useSessionExpiry } from '../stores/use-session-expiry';
import { Toasts } from './toasts';

/**
 * Wraps every route: the toast stack, the one session-expiry listener (code 1002, docs/api.md) and the
 * token-cookie watcher.
 */
export function RootLayout() {
  useSessionExpiry();
  useEffect(() => watchTokenCookie(), []);
  return (
    <>
      <Outlet />
      <Toasts />
    </>
  );
}
