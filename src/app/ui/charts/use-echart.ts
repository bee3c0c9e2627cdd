import { useEffect, useRef, useState } from 'react';
import type { ChartOption, init } from './echarts-core';

type Instance = ReturnType<typeof init>;

/** What a chart draws: each kind loads only its part of ECharts (./echarts-core). */
export type EChartKind = 'line' | 'radar';

const loadKind = (kind: EChartKind) =>
  kind === 'line' ? import('./echarts-line') : import('./echarts-radar');

/** A chart this far below (or above) the viewport, in viewport heights, starts loading. */
const NEAR_VIEWPORT = '50% 0px';
/**
 * After this long on the page, charts out of view load too, once the main thread is idle, so that
 * printing (the report's button) and a quick scroll find them drawn.
 */
const IDLE_START_MS = 3000;

/** Disposes the instance; one that never drew may throw on the way out, which must not break the page. */
function release(chart: { current: Instance | null }): void {
  const c = chart.current;
  chart.current = null;
  try {
    c?.dispose();
  } catch (err) {
    console.warn('[chart] could not dispose the chart', err);
  }
}

/**
 * Calls `start` once: when `el` comes within NEAR_VIEWPORT of the viewport, when the page is printed,
 * or once the page has been idle IDLE_START_MS; at once where IntersectionObserver is missing.
 * Returns what stops watching.
 */
function whenNeeded(el: HTMLElement, start: () => void): () => void {
  let fired = false;
  const once = () => {
    if (fired) return;
    fired = true;
    unwatch();
    start();
  };
  const io =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && once(), {
          rootMargin: NEAR_VIEWPORT,
        })
      : null;
  const idleSoon = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(once, { timeout: 2000 }) : once();
  const timer = setTimeout(idleSoon, IDLE_START_MS);
  function unwatch() {
    io?.disconnect();
    clearTimeout(timer);
    window.removeEventListener('beforeprint', once);
  }
  if (io) {
    io.observe(el);
    window.addEventListener('beforeprint', once);
  } else once();
  return unwatch;
}

/**
 * Mounts one ECharts instance on a div, feeds it the option, follows the div's size and disposes
 * it on unmount. ECharts itself (the largest chunk of the app) loads only when the div comes near
 * the viewport, when the page is printed, or once the page has been idle a while (`whenNeeded`):
 * after the screen's first paint, and never for a chart nobody scrolls to on a phone. `failed` turns
 * true when ECharts cannot load or the canvas cannot be created (very old browsers, test DOMs):
 * callers then rely on their text alternative, which every chart has anyway.
 */
export function useEChart(option: ChartOption, kind: EChartKind) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<Instance | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let gone = false;
    let ro: ResizeObserver | null = null;
    // Print uses a different width: redraw so the chart fills the paper.
    const onPrint = () => chart.current?.resize();
    const draw = (c: Instance) => {
      try {
        c.setOption(latest.current, { notMerge: true });
      } catch (err) {
        console.warn('[chart] could not draw', err);
        release(chart);
        setFailed(true);
      }
    };
    const start = () => {
      if (gone) return;
      loadKind(kind).then(
        (echarts) => {
          if (gone) return;
          try {
            chart.current = echarts.init(el, null, { renderer: 'canvas' });
          } catch (err) {
            console.warn('[chart] could not start the chart renderer', err);
            setFailed(true);
            return;
          }
          ro =
            typeof ResizeObserver === 'function' ? new ResizeObserver(() => chart.current?.resize()) : null;
          ro?.observe(el);
          window.addEventListener('beforeprint', onPrint);
          draw(chart.current);
        },
        (err) => {
          console.warn('[chart] could not load the chart library', err);
          if (!gone) setFailed(true);
        },
      );
    };
    const unwatch = whenNeeded(el, start);
    return () => {
      gone = true;
      unwatch();
      ro?.disconnect();
      window.removeEventListener('beforeprint', onPrint);
      release(chart);
    };
  }, [kind]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    try {
      c.setOption(option, { notMerge: true });
    } catch (err) {
      console.warn('[chart] could not draw', err);
      // The fallback text replaces the canvas: let go of the instance now, while its div still exists.
      release(chart);
      setFailed(true);
    }
  }, [option]);

  return { ref, failed };
}

/** True when the user asked for less motion: charts then draw without animation. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
