import { effect, type ReadonlySignal } from '@preact/signals-react';
import { startTransition, useEffect, useState } from 'react';

/**
 * A signal's value for a component that may show it a moment late, rendered in a React transition.
 *
 * `useSignals()` subscribes through useSyncExternalStore, and React renders those updates at once, in
 * the task that wrote the signal: on the dub page that is the upload queue's IndexedDB → send → score
 * continuation, the clip-position timer, the Scene take click. A transition is rendered by React's
 * scheduler in tasks of its own, cut into ~5 ms slices, so a row's re-render no longer adds to those
 * tasks, and updates arriving together (stage, progress, score) become one render.
 */
export function useSignalInTransition<T>(source: ReadonlySignal<T>): T {
  const [shown, setShown] = useState(() => ({ source, value: source.peek() }));
  useEffect(
    () =>
      effect(() => {
        const value = source.value;
        startTransition(() =>
          setShown((prev) =>
            prev.source === source && Object.is(prev.value, value) ? prev : { source, value },
          ),
        );
      }),
    [source],
  );
  // A new source (another line in the same row) shows its own value at once, not the old one's.
  return shown.source === source ? shown.value : source.peek();
}
