import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { ReportScreen } from '../../../src/app/screens/report/report-screen';
import { json } from '../api/fixture-server';
import { prptReport } from './fixtures';
import { renderScreen, reportServerForFile } from './render-screen';

const server = reportServerForFile();

function serve(arc: unknown) {
  const report = { ...prptReport, dubbing: { ...prptReport.dubbing, arc } };
  server.handle((req, res) => {
    if (req.url.pathname.endsWith('/get_info_by_id'))
      return json(res, { code: 200, msg: 'ok', data: report });
    json(res, { code: 404, msg: 'no', data: null });
  });
}

describe('the report says whether the arc follows the scene', () => {
  test('with a verdict: its words and score in the emotion-arc card', async () => {
    serve({ score: 88, correlation: 0.76, lines: 3, verdict: 'follows' });
    renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
    const verdict = await screen.findByTestId('report-arc-verdict');
    expect(verdict).toHaveTextContent(/^情绪起伏跟上了这场戏（88 分，满分 100）/);
    expect(screen.getByRole('region', { name: '情感曲线' })).toContainElement(verdict);
  }, 15_000);

  test('without one (a weak correlation, or too few lines): nothing is said', async () => {
    serve({ score: 62, correlation: 0.24, lines: 4, verdict: null });
    renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
    expect(await screen.findByRole('region', { name: '情感曲线' })).toBeInTheDocument();
    expect(screen.queryByTestId('report-arc-verdict')).toBeNull();
  }, 15_000);
});
