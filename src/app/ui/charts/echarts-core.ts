// ECharts with only the modules the app draws, each chart loading its own part: the core, the
// canvas renderer and the tooltip here (every chart has them); line charts add ./echarts-line
// (contours, emotion arc, progress), the radar ./echarts-radar. The report, which draws only
// lines, does not load the radar. Importing `echarts` whole would add ~330 KB gzip.
// Only ./use-echart.ts imports these modules, dynamically, once a chart is about to be seen.
import type { LineSeriesOption, RadarSeriesOption } from 'echarts/charts';
import {
  type GridComponentOption,
  type RadarComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  LineSeriesOption | RadarSeriesOption | GridComponentOption | RadarComponentOption | TooltipComponentOption
>;

export { init };
