import { type ReadonlySignal, signal } from '@preact/signals-react';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { DubLineRow } from '../../../src/app/features/dub/dub-line-row';
import type { SubtitleLine } from '../../../src/app/lib/movie-detail';

/** A subtitle line as the prpt store holds it (seconds derived from mm:ss). */
export function dubLine(overrides: Partial<SubtitleLine> = {}): SubtitleLine {
  return {
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
    ...overrides,
  } as SubtitleLine;
}

/**
 * Renders one dub line row in a list, with spy handlers the test can inspect; the clip position and
 * the take's busy flag are signals the test may pass and change (idle, at 0 s by default).
 */
export function renderDubRow(
  line: SubtitleLine,
  handlers: {
    onRetry?: () => void;
    onRecord?: () => void;
    onListen?: () => void;
    clipTime?: ReadonlySignal<number>;
    busy?: ReadonlySignal<boolean>;
  } = {},
) {
  const onRetry = handlers.onRetry ?? vi.fn();
  const onRecord = handlers.onRecord ?? vi.fn();
  const onListen = handlers.onListen ?? vi.fn();
  render(
    <ol>
      <DubLineRow
        line={line}
        clipTime={handlers.clipTime ?? signal(0)}
        busy={handlers.busy ?? signal(false)}
        onRecord={onRecord}
        onListen={onListen}
        onRetry={onRetry}
        onPlay={vi.fn()}
      />
    </ol>,
  );
  return { onRetry, onRecord, onListen };
}
