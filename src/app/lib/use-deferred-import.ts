import { useEffect, useState } from 'react';

/**
 * A module the first screen does not need, imported after the first render (an effect), so it stays
 * out of the entry chunk. Null until it arrives. A failed import is logged and tried again when
 * `retryKey` changes (the layout passes the path: the next page tries again).
 */
export function useDeferredImport<M extends object>(
  name: string,
  importer: () => Promise<M>,
  retryKey: unknown,
): M | null {
  const [module, setModule] = useState<M | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new retryKey is what runs a failed import again
  useEffect(() => {
    if (module) return;
    let live = true;
    importer().then(
      (m) => {
        if (live) setModule(m);
      },
      (e: unknown) => console.error(`[${name}] cannot load; trying again on the next page`, e),
    );
    return () => {
      live = false;
    };
  }, [name, importer, module, retryKey]);
  return module;
}
