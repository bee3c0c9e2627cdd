import { useEffect } from 'react';
import { Outlet, useRouteError } from 'react-router-dom';
import { PageErrorView } from '../router/chunk-error-boundary';
import { watchTokenCookie } from '../stores/account';
import { useSessionExpiry } from '../stores/use-session-expiry';
import { Toasts } from './toasts';

/**
 * Wraps every route: the toast stack, the one session-expiry listener (spec §8, code 1002) and the
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

/** Last resort for errors outside a page's own boundary: still a readable message and a way out. */
export function RouteErrorView() {
  const error = useRouteError();
  return <PageErrorView error={error} onRetry={() => window.location.reload()} />;
}
