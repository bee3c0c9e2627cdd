import { useSignals } from '@preact/signals-react/runtime';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { isLoggedIn } from '../stores/account';
import { loginPathFor } from '../lib/paths';

/**
 * The authentication wrapper: without a token, go to the area's login (lib/paths.ts) and come back to the
 * requested page (path + query) after login.
 */
export function RequireAuth() {
  useSignals();
  const location = useLocation();
  if (!isLoggedIn.value) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return <Outlet />;
}
