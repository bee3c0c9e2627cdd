import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetLineStates, setLineState } from '../../../src/app/features/dub/line-state';
import { recordAttempt } from '../../../src/app/stores/prpt';
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
    recordAttempt('l1', JSON.stringify({ overall: 83 }), 'blob:first');
    const { onRecord } = renderRow();
    expect(screen.getByRole('img', { name: '第一次 83' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重录这句' }));
    expect(onRecord).toHaveBeenCalledWith(line);
  });
});
