import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { resetLineStates, setLineState } from '../../../src/app/stores/uploads/line-state';
import { speechScore } from '../fixtures/speech-score';
import { dubLine, renderDubRow } from './row-fixture';

// A take without speech is no score (src/audio/scoring/aggregate.ts): its row says so, shows no 0,
// and asks for a retake with the row's main button.
const line = dubLine();
const silent = speechScore({ subtitlesId: 'l1', overall: 0 });
const silentJson = JSON.stringify({ ...silent, quality: { ...silent.quality, speechDetected: false } });

beforeEach(() => {
  resetLineStates();
  clearScores();
});

describe('a take without speech on the dub page', () => {
  it('reads "no speech heard", asks for a retake, and shows no score', () => {
    recordAttempt('l1', silentJson, 'blob:silent');
    setLineState('l1', { stage: 'scored', overall: 0, attempt: 1 });
    const onRecord = vi.fn();
    renderDubRow(line, { onRecord });
    const row = screen.getByTestId('line-l1');
    expect(row).toHaveAttribute('data-silent', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('没有听到说话');
    expect(screen.getByRole('alert')).toHaveTextContent('再录一次这一句');
    expect(screen.queryByRole('img', { name: /第一次/ })).toBeNull();
    const retake = screen.getByTestId('record-l1');
    expect(retake.className).toMatch(/primary/);
    fireEvent.click(retake);
    expect(onRecord).toHaveBeenCalledWith(line);
  });

  it('a retake with speech replaces it: the score shows and the request is gone', () => {
    recordAttempt('l1', silentJson, 'blob:silent');
    recordAttempt('l1', JSON.stringify(speechScore({ subtitlesId: 'l1', overall: 71 })), 'blob:second');
    renderDubRow(line);
    expect(screen.getByTestId('line-l1')).not.toHaveAttribute('data-silent');
    expect(screen.getByRole('img', { name: '第二次 71' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
