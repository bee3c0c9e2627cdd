import { useMemo } from 'react';
import type { SubScores } from '../../../api/contract';
import { ChartCanvas, ChartFrame, chartTableClass } from './chart-frame';
import { readChartTheme } from './chart-theme';
import type { ChartOption } from './echarts-core';
import { prefersReducedMotion, useEChart } from './use-echart';

export const SUB_SCORE_KEYS = [
  'emotion',
  'intonation',
  'energy',
  'timing',
  'quality',
] as const satisfies ReadonlyArray<keyof SubScores>;

/** A chart at most this wide (CSS px) is a phone's: see the option's `media`. */
const NARROW_CHART_PX = 440;

export interface SubScoreRadarLabels {
  title: string;
  summary: string;
  /** Name of each sub-score in the current language. */
  axes: Record<keyof SubScores, string>;
  current: string;
  previous: string;
  tableLabel: string;
  fallback: string;
}

export interface SubScoreRadarProps {
  scores: SubScores;
  /** The earlier attempt, drawn behind for comparison. */
  previous?: SubScores | null;
  labels: SubScoreRadarLabels;
  height?: number;
}

/** The radar's echarts option: the earlier attempt dashed behind the current one. */
function radarOption(
  scores: SubScores,
  previous: SubScores | null | undefined,
  labels: SubScoreRadarLabels,
): ChartOption {
  const th = readChartTheme();
  const data = [
    ...(previous
      ? [
          {
            name: labels.previous,
            value: SUB_SCORE_KEYS.map((k) => previous[k]),
            lineStyle: { color: th.muted, type: 'dashed' as const },
            itemStyle: { color: th.muted },
            areaStyle: { color: th.muted, opacity: 0.08 },
          },
        ]
      : []),
    {
      name: labels.current,
      value: SUB_SCORE_KEYS.map((k) => scores[k]),
      lineStyle: { color: th.learner, width: 2.5 },
      itemStyle: { color: th.learner },
      areaStyle: { color: th.learner, opacity: 0.22 },
    },
  ];
  return {
    baseOption: {
      animation: !prefersReducedMotion(),
      textStyle: { fontFamily: th.font },
      tooltip: { trigger: 'item' },
      radar: {
        indicator: SUB_SCORE_KEYS.map((k) => ({ name: labels.axes[k], max: 100 })),
        radius: '66%',
        axisName: { color: th.text, fontFamily: th.font },
        splitLine: { lineStyle: { color: th.grid } },
        splitArea: { show: false },
        axisLine: { lineStyle: { color: th.grid } },
      },
      series: [{ type: 'radar', data, symbolSize: 6 }],
    },
    // A phone-wide chart: the side axes' names ("Recording quality") ran past the canvas and were
    // cut. There the radar is smaller and a name takes a line a word.
    media: [
      {
        query: { maxWidth: NARROW_CHART_PX },
        option: {
          radar: {
            radius: '52%',
            axisName: { formatter: (name?: string) => (name ?? '').replace(/ /g, '\n') },
          },
        },
      },
    ],
  };
}

/** The same figures as a table, for screen readers and the "show table" toggle. */
function SubScoreTable({ scores, previous, labels }: Omit<SubScoreRadarProps, 'height'>) {
  return (
    <table className={chartTableClass}>
      <thead>
        <tr>
          <th scope="col">{labels.title}</th>
          {previous ? <th scope="col">{labels.previous}</th> : null}
          <th scope="col">{labels.current}</th>
        </tr>
      </thead>
      <tbody>
        {SUB_SCORE_KEYS.map((k) => (
          <tr key={k}>
            <th scope="row">{labels.axes[k]}</th>
            {previous ? <td>{Math.round(previous[k])}</td> : null}
            <td>{Math.round(scores[k])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SubScoreRadar({ scores, previous, labels, height = 280 }: SubScoreRadarProps) {
  const option = useMemo(() => radarOption(scores, previous, labels), [scores, previous, labels]);
  const { ref, failed } = useEChart(option, 'radar');
  const th = readChartTheme();
  return (
    <ChartFrame
      title={labels.title}
      summary={labels.summary}
      legend={[
        { label: labels.current, color: th.learner },
        ...(previous ? [{ label: labels.previous, color: th.muted, dashed: true }] : []),
      ]}
      tableLabel={labels.tableLabel}
      table={<SubScoreTable scores={scores} previous={previous} labels={labels} />}
    >
      <ChartCanvas chartRef={ref} failed={failed} height={height} fallback={labels.fallback} />
    </ChartFrame>
  );
}
