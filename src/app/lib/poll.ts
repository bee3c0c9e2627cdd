/**
 * Asks `check` again and again until it answers true, waiting longer after each answer (backoff):
 * `firstMs`, then × `factor`, capped at `maxMs`. A failed check counts as "not yet". Returns a stop
 * function (call it on unmount); nothing runs after it.
 */
type Timer = ReturnType<typeof setTimeout>;

export function pollWithBackoff(
  check: () => Promise<boolean>,
  {
    firstMs = 1000,
    factor = 2,
    maxMs = 15_000,
    // Wrapped, not passed as methods: a browser's setTimeout called on another object throws
    // "Illegal invocation" (Node's does not, so only a real browser showed it).
    timers = { set: (f: () => void, ms: number) => setTimeout(f, ms), clear: (t: Timer) => clearTimeout(t) },
  }: {
    firstMs?: number;
    factor?: number;
    maxMs?: number;
    timers?: { set: (f: () => void, ms: number) => Timer; clear: (t: Timer) => void };
  } = {},
): () => void {
  let stopped = false;
  let timer: Timer | null = null;
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
