import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetLineStates, setLineState } from '../../../src/app/features/dub/line-state';
import { lineTimings, scoreStored, windowArrived } from '../../../src/app/features/dub/pipeline-timing';
import { recordAttempt } from '../../../src/app/stores/prpt';
import { dubLine, renderDubRow } from './row-fixture';

const measures = (name: string) =>
  performance.getEntriesByType('measure').filter((m) => m.name === `dub:line-end→score ${name}`);

afterEach(() => performance.clearMeasures());

describe('line end → score shown', () => {
  it('is measured once the row has shown the score, not when the store got it', async () => {
    resetLineStates();
    const line = dubLine({ id: 'timed-1' });
    const now = performance.timeOrigin + performance.now();
    windowArrived(
      'up-1',
      {
        takeId: 't',
        subtitlesId: line.id,
        wav: new ArrayBuffer(0),
        durationMs: 2000,
        complete: true,
        start: 0,
        end: 32000,
        closedAtMs: now - 20,
        encodedAtMs: now - 10,
      },
      0.5,
    );
    // As the upload queue does on a score: the store, the line state, then the timing.
    recordAttempt(line.id, JSON.stringify({ overall: 70 }), '');
    setLineState(line.id, { stage: 'scored', overall: 70, attempt: 1 });
    scoreStored('up-1', line.id);
    // No row has shown it yet (rows render their updates in transitions, a moment later): no measure.
    await new Promise((r) => setTimeout(r, 50));
    expect(measures(line.id)).toHaveLength(0);

    renderDubRow(line);
    expect(screen.getByTestId(`line-${line.id}`)).toHaveAttribute('data-stage', 'scored');
    await waitFor(() => expect(measures(line.id)).toHaveLength(1));
    const timing = lineTimings.peek().find((t) => t.uploadId === 'up-1');
    // Line end = window close − margin (0.5 s): at least 520 ms before it was shown.
    expect(timing?.lineEndToShownMs).toBeGreaterThanOrEqual(520);
  });
});
