import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadMessages, setLang } from '../../../src/app/i18n';
import { pollWithBackoff } from '../../../src/app/lib/poll';
import { prpt } from '../../../src/app/stores/films';
import { ReportScreen } from '../../../src/app/screens/report/report-screen';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { prptReport } from './fixtures';
import { renderScreen } from './render-screen';

const server = fixtureServerForFile();
beforeAll(async () => {
  await loadMessages('later', 'zh');
  await setLang('zh');
});
afterEach(() => {
  server.reset();
  prpt.reset();
});

describe('the report notices the finished dubbed video by itself', () => {
  test('rendering → ready without a reload: the download link appears, and the asking stops', async () => {
    let asked = 0;
    server.handle((req, res) => {
      if (req.url.pathname.endsWith('/get_info_by_id')) {
        asked += 1;
        const dubVideo =
          asked < 3
            ? { status: 'rendering', url: null, message: null }
            : { status: 'ready', url: '/media/renders/run.mp4', message: null };
        return json(res, { code: 200, msg: 'ok', data: { ...prptReport, dubVideo } });
      }
      if (req.url.pathname.endsWith('/get_report_url'))
        return json(res, { code: 200, msg: 'ok', data: { url: 'https://k.example/h5', expiresAt: 'x' } });
      json(res, { code: 404, msg: 'no', data: null });
    });
    renderScreen(<ReportScreen part="prpt" select={{}} />, '/prpt/report');
    expect(await screen.findByText('配音视频生成中，完成后这里会出现下载链接')).toBeInTheDocument();
    // First ask after 1 s, the second 2 s later: ready on the third answer.
    expect(await screen.findByTestId('dub-video-download', {}, { timeout: 8000 })).toHaveAttribute(
      'href',
      expect.stringContaining('/media/renders/run.mp4'),
    );
    expect(asked).toBe(3);
  }, 15_000);
});

describe('pollWithBackoff', () => {
  test('waits 1, 2, 4 … s capped, stops once done, and never runs after stop', async () => {
    vi.useFakeTimers();
    try {
      const at: number[] = [];
      const answers = [false, false, false, true];
      const start = Date.now();
      const stop = pollWithBackoff(
        async () => {
          at.push(Date.now() - start);
          return answers.shift() ?? true;
        },
        { firstMs: 1000, maxMs: 3000 },
      );
      await vi.advanceTimersByTimeAsync(20_000);
      expect(at).toEqual([1000, 3000, 6000, 9000]);
      stop();

      at.length = 0;
      const stop2 = pollWithBackoff(async () => {
        at.push(1);
        return false;
      });
      await vi.advanceTimersByTimeAsync(1000);
      stop2();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(at).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
