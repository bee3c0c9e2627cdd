import { useMemo } from 'react';
import type { Contours } from '../../../api/contract';
import { ChartCanvas, ChartFrame } from './chart-frame';
import { readChartTheme } from './chart-theme';
import type { ChartOption } from './echarts-core';
import { prefersReducedMotion, useEChart } from './use-echart';

export interface ContourChartLabels {
  title: string;
  /** Spoken description of what the chart shows (e.g. the two pitch ranges). */
  summary: string;
  learner: string;
  actor: string;
  /** The take with the actor's melody (drawn when `contours.melodyPitch` is there). */
  melody?: string;
  pitch: string;
  loudness: string;
  seconds: string;
  /** Shown when the chart cannot be drawn. */
  fallback: string;
}

export interface ContourChartProps {
  contours: Contours;
  labels: ContourChartLabels;
  height?: number;
}

type Point = [number, number | null];

function pairs(t: number[], v: ReadonlyArray<number | null> | null): Point[] {
  if (!v) return [];
  const n = Math.min(t.length, v.length);
  const out: Point[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = [t[i], v[i] ?? null];
  return out;
}

/**
 * The learner's pitch and loudness drawn over the actor's, on the learner's timeline (the server
 * warps the actor's contour onto it with DTW, so the two lines are comparable point by point), and
 * when there is one, the pitch read back from the take with the actor's melody, pulled onto the
 * same timeline (src/audio/scoring/score.ts plotMelodyPitch): where it leaves the actor's line, the
 * resynthesis missed.
 * Pitch is in semitones around each speaker's own median, so a deep voice and a high voice
 * compare by melody, not by register.
 */
export function ContourChart({ contours, labels, height = 320 }: ContourChartProps) {
  const option = useMemo(() => contourOption(contours, labels), [contours, labels]);
  const { ref, failed } = useEChart(option, 'line');
  const th = readChartTheme();
  return (
    <ChartFrame
      title={labels.title}
      summary={labels.summary}
      legend={[
        { label: labels.learner, color: th.learner },
        ...(contours.actorPitch ? [{ label: labels.actor, color: th.actor, dashed: true }] : []),
        ...(contours.melodyPitch && labels.melody ? [{ label: labels.melody, color: th.melody }] : []),
      ]}
    >
      <ChartCanvas chartRef={ref} failed={failed} height={height} fallback={labels.fallback} />
    </ChartFrame>
  );
}

/** Two plots on one timeline: pitch above, loudness below, each the actor's dashed under the learner's. */
function contourOption(contours: Contours, labels: ContourChartLabels): ChartOption {
  const th = readChartTheme();
  const axisLabel = { color: th.muted, fontFamily: th.font };
  const splitLine = { lineStyle: { color: th.grid, opacity: 0.5 } };
  const xAxis = (gridIndex: number, show: boolean) => ({
    type: 'value' as const,
    gridIndex,
    min: 0,
    max: contours.t.length ? contours.t[contours.t.length - 1] : 1,
    axisLabel: { ...axisLabel, show, formatter: (v: number) => `${v.toFixed(1)}` },
    name: show ? labels.seconds : '',
    nameTextStyle: axisLabel,
    axisLine: { lineStyle: { color: th.grid } },
    splitLine: { show: false },
  });
  const yAxis = (gridIndex: number, name: string) => ({
    type: 'value' as const,
    gridIndex,
    name,
    // Beside its own plot, turned along the axis: above it, the loudness name ran into the
    // pitch plot's lowest labels.
    nameLocation: 'middle' as const,
    nameRotate: 90,
    nameGap: 44,
    nameTextStyle: axisLabel,
    axisLabel,
    splitLine,
    scale: true,
  });
  return {
    animation: !prefersReducedMotion(),
    textStyle: { fontFamily: th.font },
    grid: [
      { left: 68, right: 16, top: 16, height: '48%' },
      { left: 68, right: 16, bottom: 40, height: '26%' },
    ],
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => (typeof v === 'number' ? v.toFixed(1) : '—'),
    },
    xAxis: [xAxis(0, false), xAxis(1, true)],
    yAxis: [yAxis(0, labels.pitch), yAxis(1, labels.loudness)],
    series: contourSeries(contours, labels, th),
  };
}

/** The pitch lines (actor, learner, the melody take's when there is one), then the loudness lines. */
function contourSeries(
  contours: Contours,
  labels: ContourChartLabels,
  th: ReturnType<typeof readChartTheme>,
) {
  const line = (color: string, dashed: boolean, width = 2.5) => ({
    type: 'line' as const,
    showSymbol: false,
    connectNulls: false,
    smooth: 0.3,
    lineStyle: { color, width, type: dashed ? ('dashed' as const) : ('solid' as const) },
    itemStyle: { color },
  });
  return [
    {
      ...line(th.actor, true, 2),
      name: `${labels.actor} · ${labels.pitch}`,
      data: pairs(contours.t, contours.actorPitch),
    },
    {
      ...line(th.learner, false),
      name: `${labels.learner} · ${labels.pitch}`,
      data: pairs(contours.t, contours.learnerPitch),
    },
    ...(contours.melodyPitch && labels.melody
      ? [
          {
            ...line(th.melody, false, 2),
            name: `${labels.melody} · ${labels.pitch}`,
            data: pairs(contours.t, contours.melodyPitch),
          },
        ]
      : []),
    {
      ...line(th.actor, true, 1.5),
      name: `${labels.actor} · ${labels.loudness}`,
      xAxisIndex: 1,
      yAxisIndex: 1,
      data: pairs(contours.t, contours.actorLoudness),
    },
    {
      ...line(th.learner, false, 2),
      name: `${labels.learner} · ${labels.loudness}`,
      xAxisIndex: 1,
      yAxisIndex: 1,
      areaStyle: { color: th.learner, opacity: 0.12 },
      data: pairs(contours.t, contours.learnerLoudness),
    },
  ];
}
