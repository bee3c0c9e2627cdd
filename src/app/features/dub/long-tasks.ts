import { signal } from '@preact/signals-react';

/** Main-thread long tasks (> 50 ms) seen since `watchLongTasks` started, for the overlay and the bench. */
export const longTasks = signal<{ count: number; worstMs: number }>({ count: 0, worstMs: 0 });

export function watchLongTasks(): () => void {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('longtask')
  ) {
    return () => {};
  }
  const observer = new PerformanceObserver((list) => {
    const current = longTasks.peek();
    let { count, worstMs } = current;
    for (const e of list.getEntries()) {
      count++;
      worstMs = Math.max(worstMs, e.duration);
    }
    longTasks.value = { count, worstMs };
  });
  observer.observe({ type: 'longtask', buffered: true });
  return () => observer.disconnect();
}
