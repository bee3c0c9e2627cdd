import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import type { UserInfo } from '../../api/contract';
import { createQrLogin, type QrLoginOptions, type QrLoginState } from './qr-login';

/**
 * QR login for a page: starts when mounted, stops on unmount (no poll outlives the page).
 * `onSuccess` typically navigates to the `redirect` target.
 */
export function useQrLogin(
  onSuccess: (info: UserInfo | null) => void,
  options: Omit<QrLoginOptions, 'onSuccess'> = {},
): QrLoginState & { restart: () => void } {
  useSignals();
  const latest = useRef(onSuccess);
  latest.current = onSuccess;
  const [controller] = useState(() =>
    createQrLogin({ ...options, onSuccess: (info) => latest.current(info) }),
  );
  useEffect(() => {
    void controller.start();
    return () => controller.stop();
  }, [controller]);
  return { ...controller.state.value, restart: () => void controller.start() };
}
