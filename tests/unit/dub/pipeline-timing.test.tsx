import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpeechScore } from '../../../src/api/contract';
import { lineEvents } from '../../../src/app/features/dub/line-events';
import { lineTimings } from '../../../src/app/features/dub/pipeline-timing';
import { onUploadScored, uploadEvents } from '../../../src/app/stores/uploads/app-queue';
import { resetLineStates } from '../../../src/app/stores/uploads/line-state';
import { dubLine, renderDubRow } from './row-fixture';

const stage = (step: string, line: string) =>
  performance.getEntriesByType('measure').filter((m) => m.name === `dub:${step} ${line}`);
const measures = (line: string) => stage('line-end→score', line);

afterEach(() => performance.clearMeasures());

describe('line end → score shown', () => {
  it('is measured once the row has shown the score, not when the store got it', async () => {
    resetLineStates();
    const line = dubLine({ id: 'timed-1' });
    const now = performance.timeOrigin + performance.now();
    // The worker hands the window over, as the dub session reports it.
    lineEvents.emit('window', {
      uploadId: 'up-1',
      window: {
        takeId: 't',
        subtitlesId: line.id,
        wav: new ArrayBuffer(0),
        durationMs: 2000,
        tailMs: 500,
        complete: true,
        start: 0,
        end: 32000,
        closedAtMs: now - 20,
        encodedAtMs: now - 10,
      },
    });
    // The app's queue sends, then scores the upload: the store, the line state, and the events the
    // timing observes.
    const item = { uploadId: 'up-1', subtitlesId: line.id, attempt: 1 as const };
    uploadEvents.emit('sending', item as Parameters<typeof onUploadScored>[0]);
    expect(stage('queue', line.id)).toHaveLength(1);
    onUploadScored(item as Parameters<typeof onUploadScored>[0], { overall: 70 } as SpeechScore);
    expect(stage('upload+score', line.id)).toHaveLength(1);
    // In the store is not on screen: only a row's commit ends the measure (rows render in transitions).
    expect(lineTimings.peek().find((t) => t.uploadId === 'up-1')?.lineEndToShownMs).toBeUndefined();
    expect(measures(line.id)).toHaveLength(0);

    renderDubRow(line);
    expect(screen.getByTestId(`line-${line.id}`)).toHaveAttribute('data-stage', 'scored');
    await waitFor(() => expect(measures(line.id)).toHaveLength(1));
    const timing = lineTimings.peek().find((t) => t.uploadId === 'up-1');
    // Line end = window close − the audio it holds after the line (0.5 s): at least 520 ms before it was shown.
    expect(timing?.lineEndToShownMs).toBeGreaterThanOrEqual(520);
    // Each step after the hand-off is measured once, and they add up to no more than the whole.
    expect(stage('paint', line.id)).toHaveLength(1);
    const steps = ['queue', 'upload+score', 'paint'].map((s) => stage(s, line.id)[0].duration);
    expect(steps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(measures(line.id)[0].duration);
    expect([timing?.queueMs, timing?.uploadMs, timing?.paintMs]).toEqual(steps);
  });

  it("is measured for a line that ended in the page's first moments (before its time origin)", async () => {
    resetLineStates();
    const line = dubLine({ id: 'timed-early' });
    // The window closed 10 ms after the page's time origin: its line end (0.5 s of tail before) lies before it.
    lineEvents.emit('window', {
      uploadId: 'up-early',
      window: {
        takeId: 't',
        subtitlesId: line.id,
        wav: new ArrayBuffer(0),
        durationMs: 5,
        tailMs: 500,
        complete: true,
        start: 0,
        end: 80,
        closedAtMs: performance.timeOrigin + 10,
        encodedAtMs: performance.timeOrigin + 12,
      },
    });
    const item = { uploadId: 'up-early', subtitlesId: line.id, attempt: 1 as const };
    onUploadScored(item as Parameters<typeof onUploadScored>[0], { overall: 70 } as SpeechScore);
    renderDubRow(line);
    await waitFor(() => expect(measures(line.id)).toHaveLength(1));
    const timing = lineTimings.peek().find((t) => t.uploadId === 'up-early');
    expect(timing?.lineEndToShownMs).toBeGreaterThanOrEqual(490);
  });
});
