// The radar series and its coordinate system (./echarts-core says which chart loads which part).
import { RadarChart } from 'echarts/charts';
import { RadarComponent } from 'echarts/components';
import { use } from 'echarts/core';

use([RadarChart, RadarComponent]);

export { init } from './echarts-core';
