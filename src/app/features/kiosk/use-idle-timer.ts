import { useEffect, useRef, useState } from 'react';

/**
 * Activity: a touch, key, wheel or input anywhere, and a film or clip playing on the page (`timeupdate`,
 * about 4 times a second while a <video> or <audio> plays; heard in the capture phase, as media events
 * do not bubble). A learner watching the film, or dubbing it (the clip plays during every take), is not
 * idle; once the clip ends or pauses, the idle time runs again.
 */
const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'input', 'timeupdate'] as const;

export interface IdleState {
  /** Seconds left while the warning shows, null otherwise. */
  secondsLeft: number | null;
  /** Counts as activity: restarts the timer (the warning's "keep going" button). */
  poke: () => void;
}

/**
 * Calls `onIdle` after `idleMs` with no activity (above) on the page, and reports a countdown during the
 * last `warnMs`. `idleMs` 0 or `enabled` false turns it off.
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
