import { type ComponentProps, lazy, Suspense } from 'react';
import { ChartSkeleton } from './chart-frame';

// The charts (and ECharts with them) load only when a screen draws one: the first screen never
// pays for them. The skeleton keeps the layout from jumping while the chunk arrives.
const Contour = lazy(() => import('./contour-chart').then((m) => ({ default: m.ContourChart })));
const Arc = lazy(() => import('./emotion-arc-chart').then((m) => ({ default: m.EmotionArcChart })));
const Progress = lazy(() => import('./progress-chart').then((m) => ({ default: m.ProgressChart })));
const Radar = lazy(() => import('./sub-score-radar').then((m) => ({ default: m.SubScoreRadar })));

export function LazyContourChart(props: ComponentProps<typeof Contour>) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height ?? 320} />}>
      <Contour {...props} />
    </Suspense>
  );
}

export function LazyEmotionArcChart(props: ComponentProps<typeof Arc>) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height ?? 300} />}>
      <Arc {...props} />
    </Suspense>
  );
}

export function LazyProgressChart(props: ComponentProps<typeof Progress>) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height ?? 220} />}>
      <Progress {...props} />
    </Suspense>
  );
}

export function LazySubScoreRadar(props: ComponentProps<typeof Radar>) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height ?? 280} />}>
      <Radar {...props} />
    </Suspense>
  );
}

export type { ContourChartLabels, ContourChartProps } from './contour-chart';
export type { EmotionArcLabels, EmotionArcPoint } from './emotion-arc-chart';
export type { ProgressChartLabels, ProgressPoint } from './progress-chart';
export type { SubScoreRadarLabels } from './sub-score-radar';
