/**
 * Asks `check` again and again until it answers true, waiting longer after each answer (backoff):
 * `firstMs`, then × `factor`, capped at `maxMs`. A failed check counts as "not yet". Returns a stop
 * function (call it on unmount); nothing runs after it.
 */
export function pollWithBackoff(
  check: () => Promise<boolean>,
  {
    firstMs = 1000,
    factor = 2,
    maxMs = 15_000,
    timers = { set: setTimeout, clear: clearTimeout },
  }: {
    firstMs?: number;
    factor?: number;
    maxMs?: number;
    timers?: { set: typeof setTimeout; clear: typeof clearTimeout };
  } = {},
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const wait = (ms: number) => {
    timer = timers.set(async () => {
      timer = null;
      if (stopped) return;
      const done = await check().catch(() => false);
      if (!done && !stopped) wait(Math.min(maxMs, ms * factor));
    }, ms);
  };
  wait(firstMs);
  return () => {
    stopped = true;
    if (timer !== null) timers.clear(timer);
  };
}
