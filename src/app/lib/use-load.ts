import { useCallback, useEffect, useRef, useState } from 'react';

export type LoadStatus = 'loading' | 'ready' | 'failed';

/**
 * Runs a store loader when the screen opens (and on `reload`). Store loaders log failures and resolve
 * null (stores/loader.ts: no message for data loading); the screen shows a calm "nothing yet, reload" state.
 */
export function useLoad(
  run: () => Promise<unknown>,
  deps: readonly unknown[],
): { status: LoadStatus; reload: () => void } {
  const [status, setStatus] = useState<LoadStatus>('loading');
  const [nonce, setNonce] = useState(0);
  const runRef = useRef(run);
  runRef.current = run;
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's; nonce forces a reload
  useEffect(() => {
    let live = true;
    setStatus('loading');
    runRef.current().then(
      (r) => live && setStatus(r === null || r === undefined ? 'failed' : 'ready'),
      () => live && setStatus('failed'),
    );
    return () => {
      live = false;
    };
  }, [...deps, nonce]);
  return { status, reload: useCallback(() => setNonce((n) => n + 1), []) };
}
