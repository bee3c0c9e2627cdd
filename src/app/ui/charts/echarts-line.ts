// Line series on cartesian axes (./echarts-core says which chart loads which part).
import { LineChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import { use } from 'echarts/core';

use([LineChart, GridComponent]);

export { init } from './echarts-core';
