import { useEffect, useRef, useState } from 'react';

const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'input'] as const;

export interface IdleState {
  /** Seconds left while the warning shows, null otherwise. */
  secondsLeft: number | null;
  /** Counts as activity: restarts the timer (the warning's "keep going" button). */
  poke: () => void;
}

/**
 * Calls `onIdle` after `idleMs` with no touch, key, wheel or input anywhere on the page, and reports a
 * countdown during the last `warnMs`. Playback of a video is not activity: a film left running on a
 * kiosk must still end the session. `idleMs` 0 or `enabled` false turns it off.
 */
export function useIdleTimer(idleMs: number, warnMs: number, onIdle: () => void, enabled = true): IdleState {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const deadline = useRef(0);
  const onIdleRef = useRef(onIdle);
  onIdleRef.current = onIdle;
  const active = enabled && idleMs > 0;

  useEffect(() => {
    if (!active) {
      setSecondsLeft(null);
      return;
    }
    const reset = () => {
      deadline.current = Date.now() + idleMs;
      setSecondsLeft(null);
    };
    reset();
    // One coarse tick (4 Hz) instead of a timer per event: cheap on a low-end kiosk.
    const tick = setInterval(() => {
      const left = deadline.current - Date.now();
      if (left <= 0) {
        clearInterval(tick);
        setSecondsLeft(null);
        onIdleRef.current();
        return;
      }
      setSecondsLeft(left <= warnMs ? Math.ceil(left / 1000) : null);
    }, 250);
    for (const type of ACTIVITY) window.addEventListener(type, reset, { capture: true, passive: true });
    return () => {
      clearInterval(tick);
      for (const type of ACTIVITY) window.removeEventListener(type, reset, { capture: true });
    };
  }, [active, idleMs, warnMs]);

  return {
    secondsLeft,
    poke: () => {
      deadline.current = Date.now() + idleMs;
      setSecondsLeft(null);
    },
  };
}
