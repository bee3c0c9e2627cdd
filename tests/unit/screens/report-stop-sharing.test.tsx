import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { ReportScreen } from '../../../src/app/screens/report/report-screen';
import { json } from '../api/fixture-server';
import { prptReport } from './fixtures';
import { renderScreen, reportServerForFile } from './render-screen';

/** The report's share card ends the links given out so far (revoke_report_url, docs/api.md). */
const server = reportServerForFile();

/** The report (no dubbing chart: this DOM has no canvas) and its link; `revoke` answers the stop. */
function serve(revoke: { status: number; body: unknown }) {
  server.handle((req, res) => {
    if (req.url.pathname.endsWith('/get_info_by_id'))
      return json(res, { code: 200, msg: 'ok', data: { ...prptReport, dubbing: null } });
    if (req.url.pathname.endsWith('/get_report_url'))
      return json(res, {
        code: 200,
        msg: 'ok',
        data: { url: 'https://kiosk.example/producer/h5/report/abc', expiresAt: '2026-11-28T00:00:00Z' },
      });
    if (req.url.pathname.endsWith('/revoke_report_url')) return json(res, revoke.body, revoke.status);
    json(res, { code: 404, msg: 'no', data: null });
  });
}

test('停止分享 ends the links of the report shown: the QR and the link go, the card says so', async () => {
  serve({ status: 200, body: { code: 200, msg: 'ok', data: { revokedAt: '2026-12-06T17:00:00.000Z' } } });
  renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
  fireEvent.click(await screen.findByRole('button', { name: '停止分享' }));
  expect(
    await screen.findByText('已停止分享：此前给出的链接都已失效。再次打开报告会生成新链接。'),
  ).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: '打开报告链接' })).toBeNull();
  expect(screen.queryByRole('img', { name: '报告链接二维码' })).toBeNull();
  expect(screen.queryByRole('button', { name: '停止分享' })).toBeNull();
  const call = server.seen.find((r) => r.url.pathname.endsWith('/active_relation_two/revoke_report_url'));
  expect(call?.method).toBe('POST');
  expect(JSON.parse(call?.body.toString('utf8') ?? '{}')).toEqual({ id: 'rec-7' });
});

test('when the server cannot stop sharing, the card says so and keeps the link', async () => {
  serve({ status: 500, body: { code: 500, msg: '服务器内部错误', data: null } });
  renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
  fireEvent.click(await screen.findByRole('button', { name: '停止分享' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('未能停止分享，请重试');
  await waitFor(() => expect(screen.getByRole('button', { name: '停止分享' })).toBeEnabled());
  expect(screen.getByRole('link', { name: '打开报告链接' })).toBeInTheDocument();
});
