import { effect, type ReadonlySignal } from '@preact/signals-react';
import { type RefObject, useEffect } from 'react';
import type { SubtitleLine } from '../../lib/movie-detail';
import type { TakePhase } from './dub-session';

/** Room kept between the sticky stage (video and cue) and the followed row, and below it. */
const MARGIN_PX = 8;

/** Whether a phase is part of a running take (the clip plays and the rows should follow it). */
const taking = (phase: TakePhase) => phase === 'count-in' || phase === 'recording';

/**
 * During a take the dub screen follows the clip: the stage (video and line cue) stays at the top of
 * the viewport (`data-taking` on the page, see dub-follow.module.css) and the page scrolls so the row
 * of the line being spoken sits in view just below it, on a phone as on the kiosk. Works on the DOM
 * only (an attribute and window scrolls), so the page and its rows do not re-render during a take.
 */
export function useFollowTake({
  page,
  stage,
  phase,
  clipTime,
  lines,
}: {
  page: RefObject<HTMLElement | null>;
  stage: RefObject<HTMLElement | null>;
  phase: ReadonlySignal<TakePhase>;
  clipTime: ReadonlySignal<number>;
  lines: readonly SubtitleLine[];
}): void {
  useEffect(() => {
    let shown: string | null = null;
    const reduced = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const follow = (id: string) => {
      const row = document.querySelector<HTMLElement>(`[data-testid="line-${CSS.escape(id)}"]`);
      const top = stage.current?.getBoundingClientRect().bottom ?? 0;
      if (!row) return;
      const r = row.getBoundingClientRect();
      const free = window.innerHeight - top;
      // In view below the stage already, or no room at all below it: leave the page where it is.
      if (free < r.height / 2 || (r.top >= top + MARGIN_PX && r.bottom <= window.innerHeight - MARGIN_PX))
        return;
      window.scrollBy({ top: r.top - top - MARGIN_PX, behavior: reduced() ? 'auto' : 'smooth' });
    };
    let was = false;
    const stopPhase = effect(() => {
      const on = taking(phase.value);
      page.current?.toggleAttribute('data-taking', on);
      // A take starts: bring the stage to the top, where it then stays while the rows scroll.
      const stageTop = stage.current?.getBoundingClientRect().top ?? 0;
      if (on && !was && stageTop > 0) window.scrollBy({ top: stageTop, behavior: 'auto' });
      if (!on) shown = null;
      was = on;
    });
    const stopTime = effect(() => {
      const time = clipTime.value;
      if (!taking(phase.peek())) return;
      const line = lines.find((l) => time >= l.startTime_m && time < l.endTime_m);
      if (!line || line.id === shown) return;
      shown = line.id;
      follow(line.id);
    });
    return () => {
      stopPhase();
      stopTime();
      page.current?.removeAttribute('data-taking');
    };
  }, [page, stage, phase, clipTime, lines]);
}
