/**
 * Failures in the data-loading actions are only logged, with no message to the user (src/api/README.md).
 * Each loader keeps a sequence number so a slow answer for an older request cannot overwrite a newer one.
 */
export function makeLoader<A extends unknown[], R>(
  label: string,
  run: (...args: A) => Promise<R>,
  apply: (result: R) => void,
  /**
   * An answer that means "nothing yet" rather than a failure (a film not dubbed yet has no
   * suggestion): `onNothing` runs instead of a logged error.
   */
  nothing?: { is: (e: unknown) => boolean; onNothing: () => void },
): (...args: A) => Promise<R | null> {
  let seq = 0;
  return async (...args: A) => {
    const mine = ++seq;
    try {
      const result = await run(...args);
      if (mine === seq) apply(result);
      return result;
    } catch (e) {
      if (nothing?.is(e)) {
        if (mine === seq) nothing.onNothing();
        return null;
      }
      console.error(`[load] ${label} failed`, e);
      return null;
    }
  };
}
