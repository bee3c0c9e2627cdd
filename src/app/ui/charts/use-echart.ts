import { useEffect, useRef, useState } from 'react';
import { type ChartOption, init } from './echarts-core';

type Instance = ReturnType<typeof init>;

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
 * Mounts one ECharts instance on a div, feeds it the option, follows the div's size and disposes
 * it on unmount. `failed` turns true when the canvas cannot be created (very old browsers, test
 * DOMs): callers then rely on their text alternative, which every chart has anyway.
 */
export function useEChart(option: ChartOption) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<Instance | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    try {
      chart.current = init(el, null, { renderer: 'canvas' });
    } catch (err) {
      console.warn('[chart] could not start the chart renderer', err);
      setFailed(true);
      return;
    }
    const ro =
      typeof ResizeObserver === 'function' ? new ResizeObserver(() => chart.current?.resize()) : null;
    ro?.observe(el);
    // Print uses a different width: redraw so the chart fills the paper.
    const onPrint = () => chart.current?.resize();
    window.addEventListener('beforeprint', onPrint);
    return () => {
      ro?.disconnect();
      window.removeEventListener('beforeprint', onPrint);
      release(chart);
    };
  }, []);

  useEffect(() => {
    if (!chart.current) return;
    try {
      chart.current.setOption(option, { notMerge: true });
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
