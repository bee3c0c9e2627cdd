import { useMemo } from 'react';
import { ChartCanvas, ChartFrame, chartTableClass } from './chart-frame';
import { type ChartTheme, readChartTheme } from './chart-theme';
import type { ChartOption } from './echarts-core';
import { prefersReducedMotion, useEChart } from './use-echart';

export interface EmotionArcPoint {
  /** Short label of the line on the x axis (e.g. "3"). */
  label: string;
  /** Full text of the line, for the tooltip and table. */
  text: string;
  learnerArousal: number | null;
  actorArousal: number | null;
  learnerValence: number | null;
  actorValence: number | null;
}

export interface EmotionArcLabels {
  title: string;
  /** Says the chart compares the learner with the actor. */
  summary: string;
  /** Said instead when no line has the actor's reading. */
  summaryLearnerOnly?: string;
  learner: string;
  actor: string;
  arousal: string;
  valence: string;
  line: string;
  tableLabel: string;
  fallback: string;
}

export interface EmotionArcChartProps {
  points: EmotionArcPoint[];
  labels: EmotionArcLabels;
  height?: number;
  /** The card around the chart already shows its title. */
  hideTitle?: boolean;
}

const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(2));

/**
 * The chart's ECharts option: one point per line (its reading), straight segments between points,
 * nothing drawn where a line has no reading.
 */
export function emotionArcOption(
  points: readonly EmotionArcPoint[],
  labels: EmotionArcLabels,
  th: ChartTheme = readChartTheme(),
): ChartOption {
  const axisLabel = { color: th.muted, fontFamily: th.font };
  const series = (name: string, color: string, dashed: boolean, data: Array<number | null>) => ({
    type: 'line' as const,
    name,
    data,
    // Straight segments from line to line and a gap where a line has no reading: a smoothed curve
    // swung past the readings between lines (and beyond ±1), drawing values nothing measured.
    connectNulls: false,
    smooth: false,
    // Every line's point drawn, so a lone reading between gaps still shows.
    showSymbol: true,
    symbolSize: 8,
    lineStyle: { color, width: dashed ? 2 : 3, type: dashed ? ('dashed' as const) : ('solid' as const) },
    itemStyle: { color },
  });
  return {
    animation: !prefersReducedMotion(),
    textStyle: { fontFamily: th.font },
    grid: { left: 48, right: 16, top: 24, bottom: 36 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? v.toFixed(2) : '—') },
    xAxis: {
      type: 'category',
      data: points.map((p) => p.label),
      axisLabel,
      name: labels.line,
      nameTextStyle: axisLabel,
      axisLine: { lineStyle: { color: th.grid } },
    },
    yAxis: {
      type: 'value',
      min: -1,
      max: 1,
      axisLabel,
      splitLine: { lineStyle: { color: th.grid, opacity: 0.5 } },
    },
    series: [
      series(
        `${labels.actor} · ${labels.arousal}`,
        th.actor,
        false,
        points.map((p) => p.actorArousal),
      ),
      series(
        `${labels.learner} · ${labels.arousal}`,
        th.learner,
        false,
        points.map((p) => p.learnerArousal),
      ),
      series(
        `${labels.actor} · ${labels.valence}`,
        th.actor,
        true,
        points.map((p) => p.actorValence),
      ),
      series(
        `${labels.learner} · ${labels.valence}`,
        th.learner,
        true,
        points.map((p) => p.learnerValence),
      ),
    ],
  };
}

/**
 * The scene's emotional arc, line by line: arousal (how energised) and valence (how positive) of
 * the learner's takes against the actor's. Solid = arousal, dashed = valence; teal = learner,
 * gold = actor.
 */
export function EmotionArcChart({ points, labels, height = 300, hideTitle }: EmotionArcChartProps) {
  const option = useMemo<ChartOption>(() => emotionArcOption(points, labels), [points, labels]);
  const { ref, failed } = useEChart(option, 'line');
  const th = readChartTheme();
  // The legend promises the actor's line only when there is one to draw.
  const hasActor = points.some((p) => p.actorArousal !== null || p.actorValence !== null);
  return (
    <ChartFrame
      title={labels.title}
      hideTitle={hideTitle}
      summary={hasActor ? labels.summary : (labels.summaryLearnerOnly ?? labels.summary)}
      legend={[
        { label: `${labels.learner} · ${labels.arousal}`, color: th.learner },
        ...(hasActor ? [{ label: `${labels.actor} · ${labels.arousal}`, color: th.actor }] : []),
        { label: labels.valence, color: th.muted, dashed: true },
      ]}
      tableLabel={labels.tableLabel}
      table={
        <table className={chartTableClass}>
          <thead>
            <tr>
              <th scope="col">{labels.line}</th>
              <th scope="col">{`${labels.learner} · ${labels.arousal}`}</th>
              <th scope="col">{`${labels.actor} · ${labels.arousal}`}</th>
              <th scope="col">{`${labels.learner} · ${labels.valence}`}</th>
              <th scope="col">{`${labels.actor} · ${labels.valence}`}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <th scope="row">
                  {p.label}. {p.text}
                </th>
                <td>{fmt(p.learnerArousal)}</td>
                <td>{fmt(p.actorArousal)}</td>
                <td>{fmt(p.learnerValence)}</td>
                <td>{fmt(p.actorValence)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <ChartCanvas chartRef={ref} failed={failed} height={height} fallback={labels.fallback} />
    </ChartFrame>
  );
}
