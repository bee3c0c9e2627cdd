import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { attemptsUsed, clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { subTitlesScores } from '../../../src/app/stores/takes/sub-titles-scores';
import { resetLineStates } from '../../../src/app/stores/uploads/line-state';
import { speechScore } from '../fixtures/speech-score';
import { dubLine, renderDubRow } from './row-fixture';

// A line has a first and a second attempt (the spec; the server refuses a third with
// error.attemptsUsed): once both hold speech the row offers no third take and says why.
const line = dubLine();
const heard = (overall: number) => JSON.stringify(speechScore({ subtitlesId: 'l1', overall }));
const silent = speechScore({ subtitlesId: 'l1', overall: 0 });
const silentJson = JSON.stringify({ ...silent, quality: { ...silent.quality, speechDetected: false } });

beforeEach(() => {
  resetLineStates();
  clearScores();
});

describe('two attempts per line on the dub page', () => {
  it('after a first and a second take with speech: no Retake button, "both takes recorded"', () => {
    recordAttempt('l1', heard(64), 'blob:first');
    expect(attemptsUsed(subTitlesScores.value.l1)).toBe(false);
    recordAttempt('l1', heard(71), 'blob:second');
    expect(attemptsUsed(subTitlesScores.value.l1)).toBe(true);
    renderDubRow(line);
    expect(screen.queryByTestId('record-l1')).toBeNull();
    expect(screen.getByTestId('attempts-used-l1')).toHaveTextContent('两次配音都已录完');
  });

  it('a second take without speech uses no attempt up: the retake is still offered', () => {
    recordAttempt('l1', heard(64), 'blob:first');
    recordAttempt('l1', silentJson, 'blob:silent');
    expect(attemptsUsed(subTitlesScores.value.l1)).toBe(false);
    renderDubRow(line);
    expect(screen.getByTestId('record-l1')).toHaveTextContent('重录这句');
    expect(screen.queryByTestId('attempts-used-l1')).toBeNull();
  });
});
