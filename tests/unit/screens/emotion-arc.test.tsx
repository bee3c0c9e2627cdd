import { render, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import {
  EmotionArcChart,
  type EmotionArcPoint,
  emotionArcOption,
} from '../../../src/app/ui/charts/emotion-arc-chart';

const labels = {
  title: '情感曲线',
  summary: '你的配音与原声演员的对比。',
  summaryLearnerOnly: '你的配音（暂无原声演员的分析）。',
  learner: '你',
  actor: '原声',
  arousal: '唤醒度',
  valence: '效价',
  line: '台词',
  tableLabel: '查看数据表',
  fallback: '图表暂时无法显示',
};
const point = (actor: number | null): EmotionArcPoint => ({
  label: '1',
  text: 'Der Lappen liegt auf dem Eisschrank.',
  learnerArousal: 0.2,
  learnerValence: -0.1,
  actorArousal: actor,
  actorValence: actor,
});

describe('emotion arc: the legend and caption say what is drawn', () => {
  test("with the actor's reading: the actor in the legend, the comparison in the caption, figures in the table", () => {
    render(<EmotionArcChart points={[point(0.6)]} labels={labels} />);
    expect(screen.getByText('原声 · 唤醒度', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText(labels.summary)).toBeInTheDocument();
    const cells = screen.getAllByRole('cell', { hidden: true }).map((c) => c.textContent);
    expect(cells).toEqual(['0.20', '0.60', '-0.10', '0.60']);
  });

  test('without it: no actor in the legend, and the caption does not promise a comparison', () => {
    render(<EmotionArcChart points={[point(null)]} labels={labels} />);
    expect(screen.queryByText('原声 · 唤醒度', { selector: 'span' })).toBeNull();
    expect(screen.getByText(labels.summaryLearnerOnly)).toBeInTheDocument();
    expect(screen.queryByText(labels.summary)).toBeNull();
  });
});

describe('emotion arc: what is drawn is what was measured', () => {
  const points: EmotionArcPoint[] = [
    { ...point(0.9), learnerArousal: 0.95 },
    { ...point(null), learnerArousal: null, learnerValence: null },
    { ...point(-0.9), learnerArousal: -0.95 },
  ];
  test('one point per line, straight segments, no smoothing, no line across a line without a reading', () => {
    const option = emotionArcOption(points, labels);
    const series = option.series as Array<Record<string, unknown>>;
    expect(series).toHaveLength(4);
    for (const s of series) {
      expect(s.type).toBe('line');
      expect(s.smooth).toBe(false);
      expect(s.connectNulls).toBe(false);
      expect(s.showSymbol).toBe(true);
      expect((s.data as unknown[]).length).toBe(points.length);
    }
    // The learner's arousal is exactly the readings, the missing line left empty.
    expect(series[1].data).toEqual([0.95, null, -0.95]);
  });
});
