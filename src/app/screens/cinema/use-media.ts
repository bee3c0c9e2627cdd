import { useCallback, useEffect, useRef, useState } from 'react';

export interface MediaState {
  playing: boolean;
  time: number;
  duration: number;
}

/** Mirrors a media element's play state and clock into React, and offers the few commands a player needs. */
export function useMedia() {
  // A callback ref: the video appears only once the film has loaded, after this hook first ran.
  const [el, ref] = useState<HTMLVideoElement | null>(null);
  const elRef = useRef<HTMLVideoElement | null>(null);
  elRef.current = el;
  const [state, setState] = useState<MediaState>({ playing: false, time: 0, duration: 0 });

  useEffect(() => {
    if (!el) return;
    const sync = () =>
      setState({
        playing: !el.paused && !el.ended,
        time: el.currentTime || 0,
        duration: Number.isFinite(el.duration) ? el.duration : 0,
      });
    const events = ['play', 'pause', 'ended', 'timeupdate', 'seeked', 'loadedmetadata', 'durationchange'];
    for (const e of events) el.addEventListener(e, sync);
    sync();
    return () => {
      for (const e of events) el.removeEventListener(e, sync);
    };
  }, [el]);

  const toggle = useCallback(() => {
    const el = elRef.current;
    if (!el) return;
    if (el.paused || el.ended) {
      const p = el.play();
      // A blocked autoplay or a missing file is not fatal: the button simply stays "play".
      if (p && typeof p.catch === 'function')
        p.catch((e: unknown) => console.warn('[player] play refused', e));
    } else el.pause();
  }, []);

  const seek = useCallback((seconds: number) => {
    const el = elRef.current;
    if (!el) return;
    const max = Number.isFinite(el.duration) ? el.duration : seconds;
    el.currentTime = Math.max(0, Math.min(max, seconds));
    setState((s) => ({ ...s, time: el.currentTime }));
  }, []);

  return { ref, ...state, toggle, seek };
}
