import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { afterLoginPath } from './paths';

/** Returns "go back where the learner wanted to be" for a login page (the guard's `redirect` parameter). */
export function useAfterLogin(): () => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return useCallback(
    () => navigate(afterLoginPath(redirect, pathname), { replace: true }),
    [navigate, redirect, pathname],
  );
}
