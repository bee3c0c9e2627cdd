// ECharts with only the modules the app draws: line (contours, emotion arc), radar (sub-scores).
// Importing `echarts` whole would add ~330 KB gzip; this keeps the chart chunk near a third of that.
// This module is only reached through the lazy wrappers in ./lazy.tsx, so no first screen loads it.
import { LineChart, type LineSeriesOption, RadarChart, type RadarSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  RadarComponent,
  type RadarComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([
  LineChart,
  RadarChart,
  GridComponent,
  LegendComponent,
  RadarComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | RadarSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | RadarComponentOption
  | TooltipComponentOption
>;

export { init };
