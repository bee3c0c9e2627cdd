import { effect, type ReadonlySignal } from '@preact/signals-react';
import { startTransition, useEffect, useState } from 'react';

/**
 * A signal's value for a component that shows it in a render of its own, not in the task that wrote it.
 *
 * `useSignals()` subscribes through useSyncExternalStore, and React renders those updates at once, in
 * the task that wrote the signal: on the dub page that is the upload queue's IndexedDB → send → score
 * continuation, the clip-position timer, the Scene take click. Here the update is handed to React's
 * scheduler instead, which renders it in a task of its own:
 * - `transition` (the default): cut into ~5 ms slices and put behind every other update, so updates
 *   arriving together (stage, progress) become one render. For what may show a moment late.
 * - `default`: rendered whole at normal priority in the scheduler's next task. For what the learner
 *   waits for (a line's score: transitions kept it ~160 ms off screen at 4× CPU throttling, behind the
 *   clip position and the meters; docs/performance.md).
 */
export function useSignalLater<T>(
  source: ReadonlySignal<T>,
  priority: 'transition' | 'default' = 'transition',
): T {
  const [shown, setShown] = useState(() => ({ source, value: source.peek() }));
  useEffect(
    () =>
      effect(() => {
        const value = source.value;
        const update = () =>
          setShown((prev) =>
            prev.source === source && Object.is(prev.value, value) ? prev : { source, value },
          );
        if (priority === 'transition') startTransition(update);
        else update();
      }),
    [source, priority],
  );
  // A new source (another line in the same row) shows its own value at once, not the old one's.
  return shown.source === source ? shown.value : source.peek();
}
