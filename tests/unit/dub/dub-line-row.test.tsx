import { signal } from '@preact/signals-react';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetLineStates, setLineState } from '../../../src/app/stores/uploads/line-state';
import { lang } from '../../../src/app/i18n';
import { clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { speechScore } from '../fixtures/speech-score';
import { dubLine, renderDubRow } from './row-fixture';

const line = dubLine();
const renderRow = (onRetry = vi.fn(), onRecord = vi.fn()) => renderDubRow(line, { onRetry, onRecord });

describe('DubLineRow', () => {
  it('shows upload progress while uploading', () => {
    resetLineStates();
    setLineState('l1', { stage: 'uploading', progress: 0.4 });
    renderRow();
    expect(screen.getByRole('status')).toHaveTextContent('上传中 40%');
    expect(screen.getByTestId('line-l1')).toHaveAttribute('data-stage', 'uploading');
  });

  it('a failed upload shows why and a retry button', () => {
    resetLineStates();
    setLineState('l1', { stage: 'failed', message: '录音太短' });
    const { onRetry } = renderRow();
    expect(screen.getByText('录音太短')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(onRetry).toHaveBeenCalledWith(line);
  });

  it('after a first scored take it shows the score and offers a retake', () => {
    resetLineStates();
    clearScores();
    recordAttempt('l1', JSON.stringify(speechScore({ overall: 83 })), 'blob:first');
    const { onRecord } = renderRow();
    expect(screen.getByRole('img', { name: '第一次 83' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重录这句' }));
    expect(onRecord).toHaveBeenCalledWith(line);
  });

  it.each([
    ['zh', '第一次', '第二次', '回放'],
    ['en', 'First', 'Second', 'Play back'],
  ] as const)(
    "%s: each score sits in its own take with that take's play button",
    async (language, one, two, play) => {
      resetLineStates();
      clearScores();
      recordAttempt('l1', JSON.stringify(speechScore({ overall: 61 })), 'blob:first');
      recordAttempt('l1', JSON.stringify(speechScore({ overall: 74 })), 'blob:second');
      renderRow();
      act(() => {
        lang.value = language;
      });
      const first = await screen.findByRole('group', { name: one });
      const second = screen.getByRole('group', { name: two });
      // The score of a take and the button that plays it are in that take's group, and only there.
      expect(within(first).getByRole('img', { name: `${one} 61` })).toBeInTheDocument();
      expect(within(first).getByRole('button', { name: `${play} 1` })).toBeInTheDocument();
      expect(within(second).getByRole('img', { name: `${two} 74` })).toBeInTheDocument();
      expect(within(second).getByRole('button', { name: `${play} 2` })).toBeInTheDocument();
      expect(within(first).queryByRole('button', { name: `${play} 2` })).toBeNull();
      expect(within(second).queryByRole('img', { name: `${one} 61` })).toBeNull();
      act(() => {
        lang.value = 'zh';
      });
    },
  );

  it('marks itself active while the clip is inside its line, from the clip-time signal', () => {
    resetLineStates();
    const clipTime = signal(0);
    renderDubRow(line, { clipTime });
    const row = screen.getByTestId('line-l1');
    expect(row).toHaveAttribute('data-active', 'false');
    act(() => {
      clipTime.value = 1.2; // the line runs 1–2.5 s
    });
    expect(row).toHaveAttribute('data-active', 'true');
    act(() => {
      clipTime.value = 2.5; // its end is outside
    });
    expect(row).toHaveAttribute('data-active', 'false');
  });

  it('record and listen are disabled while a take runs, and enabled again after it', () => {
    resetLineStates();
    clearScores();
    const busy = signal(false);
    const { onRecord, onListen } = renderDubRow(line, { busy });
    const record = screen.getByTestId('record-l1');
    const listen = screen.getByRole('button', { name: '听原声' });
    act(() => {
      busy.value = true;
    });
    expect(record).toBeDisabled();
    expect(listen).toBeDisabled();
    fireEvent.click(record);
    expect(onRecord).not.toHaveBeenCalled();
    act(() => {
      busy.value = false;
    });
    expect(record).toBeEnabled();
    fireEvent.click(listen);
    expect(onListen).toHaveBeenCalledWith(line);
  });

  it('follows a language switch', () => {
    resetLineStates();
    clearScores();
    renderDubRow(line);
    expect(screen.getByTestId('record-l1')).toHaveTextContent('录这句');
    act(() => {
      lang.value = 'en';
    });
    try {
      expect(screen.getByTestId('record-l1')).toHaveTextContent('Record line');
    } finally {
      lang.value = 'zh';
    }
  });
});

describe('the line cue and the row in the UI language', () => {
  it('promptLine: the line at the clip position, else the next one, else none', async () => {
    const { promptLine } = await import('../../../src/app/features/dub/line-prompt');
    const a = dubLine({ id: 'a', startTime_m: 1, endTime_m: 2.5 });
    const b = dubLine({ id: 'b', startTime_m: 3, endTime_m: 4 });
    expect(promptLine([a, b], 0)).toEqual({ line: a, now: false });
    expect(promptLine([a, b], 1.2)).toEqual({ line: a, now: true });
    expect(promptLine([a, b], 2.7)).toEqual({ line: b, now: false });
    expect(promptLine([a, b], 4.5)).toBeNull();
  });

  it('a take stopped before the line ended says so; it never says the upload failed', () => {
    resetLineStates();
    setLineState('l1', { stage: 'failed', message: 'incomplete' });
    renderRow();
    expect(screen.getByRole('status')).toHaveTextContent('未录完');
    expect(screen.queryByText('上传失败')).toBeNull();
    expect(screen.getByText('录音未完成，请重录')).toBeInTheDocument();
    resetLineStates();
  });

  it("the row's translation follows the language", async () => {
    resetLineStates();
    renderRow();
    expect(screen.getByText('抹布在冰箱上放着。')).toBeInTheDocument();
    act(() => {
      lang.value = 'en';
    });
    expect(await screen.findByText('The cloth is lying on the fridge.')).toBeInTheDocument();
    expect(screen.queryByText('抹布在冰箱上放着。')).toBeNull();
    act(() => {
      lang.value = 'zh';
    });
  });
});
