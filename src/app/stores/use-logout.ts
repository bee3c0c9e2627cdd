import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearLocalData } from './session';

/** Spec §4: logout clears all local storage, removes the token cookie and goes to a chosen path (default /). */
export function useLogout(): (to?: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (to = '/') => {
      clearLocalData();
      navigate(to, { replace: true });
    },
    [navigate],
  );
}
