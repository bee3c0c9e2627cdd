import { useMemo } from 'react';
import { ChartCanvas, ChartFrame } from './chart-frame';
import { readChartTheme } from './chart-theme';
import type { ChartOption } from './echarts-core';
import { prefersReducedMotion, useEChart } from './use-echart';

export interface ProgressPoint {
  /** Short label of the run on the x axis (its date). */
  label: string;
  /** Answer score in percent; null before the run's answers. */
  answers: number | null;
  /** Dubbing average (0–100); null without takes or in part one. */
  dubbing: number | null;
}

export interface ProgressChartLabels {
  title: string;
  summary: string;
  answers: string;
  dubbing: string;
  fallback: string;
}

/**
 * The learner's runs oldest to newest: answer score and (part two) dubbing average, both 0–100. The
 * numbers are in the history table beside it, so the chart has no table of its own.
 */
export function ProgressChart({
  points,
  labels,
  showDubbing,
  height = 220,
}: {
  points: ProgressPoint[];
  labels: ProgressChartLabels;
  showDubbing: boolean;
  height?: number;
}) {
  const option = useMemo<ChartOption>(() => {
    const th = readChartTheme();
    const axisLabel = { color: th.muted, fontFamily: th.font };
    const line = (name: string, color: string, data: Array<number | null>) => ({
      type: 'line' as const,
      name,
      data,
      connectNulls: true,
      symbolSize: 8,
      lineStyle: { color, width: 3 },
      itemStyle: { color },
    });
    return {
      animation: !prefersReducedMotion(),
      textStyle: { fontFamily: th.font },
      grid: { left: 40, right: 16, top: 16, bottom: 32 },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v) => (typeof v === 'number' ? String(Math.round(v)) : '—'),
      },
      xAxis: {
        type: 'category',
        data: points.map((p) => p.label),
        axisLabel,
        axisLine: { lineStyle: { color: th.grid } },
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: 100,
        axisLabel,
        splitLine: { lineStyle: { color: th.grid, opacity: 0.5 } },
      },
      series: [
        line(
          labels.answers,
          th.accent,
          points.map((p) => p.answers),
        ),
        ...(showDubbing
          ? [
              line(
                labels.dubbing,
                th.learner,
                points.map((p) => p.dubbing),
              ),
            ]
          : []),
      ],
    };
  }, [points, labels, showDubbing]);
  const { ref, failed } = useEChart(option, 'line');
  const th = readChartTheme();
  return (
    <ChartFrame
      title={labels.title}
      summary={labels.summary}
      legend={[
        { label: labels.answers, color: th.accent },
        ...(showDubbing ? [{ label: labels.dubbing, color: th.learner }] : []),
      ]}
    >
      <ChartCanvas chartRef={ref} failed={failed} height={height} fallback={labels.fallback} />
    </ChartFrame>
  );
}
