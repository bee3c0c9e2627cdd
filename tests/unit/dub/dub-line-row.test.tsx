import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DubLineRow } from '../../../src/app/features/dub/dub-line-row';
import { resetLineStates, setLineState } from '../../../src/app/features/dub/line-state';
import type { SubtitleLine } from '../../../src/app/stores/movie-detail';
import { recordAttempt } from '../../../src/app/stores/prpt';

const line = {
  id: 'l1',
  index: 1,
  startTime: '00:01.000',
  endTime: '00:02.500',
  startTime_m: 1,
  endTime_m: 2.5,
  startMs: 1000,
  endMs: 2500,
  text: 'Der Lappen liegt auf dem Eisschrank.',
  translation: { zh: '抹布在冰箱上放着。', en: 'The cloth is lying on the fridge.' },
  speaker: 'Max',
  targetEmotion: null,
  referenceAudio: '/media/ref/l1.wav',
} as SubtitleLine;

function renderRow(onRetry = vi.fn(), onRecord = vi.fn()) {
  render(
    <ol>
      <DubLineRow
        line={line}
        active={false}
        busy={false}
        onRecord={onRecord}
        onListen={vi.fn()}
        onRetry={onRetry}
        onPlay={vi.fn()}
      />
    </ol>,
  );
  return { onRetry, onRecord };
}

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
    recordAttempt('l1', JSON.stringify({ overall: 83 }), 'blob:first');
    const { onRecord } = renderRow();
    expect(screen.getByRole('img', { name: '第一次 83' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重录这句' }));
    expect(onRecord).toHaveBeenCalledWith(line);
  });
});
