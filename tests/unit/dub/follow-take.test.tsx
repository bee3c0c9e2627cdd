import { type Signal, signal } from '@preact/signals-react';
import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TakePhase } from '../../../src/app/features/dub/dub-session';
import { useFollowTake } from '../../../src/app/features/dub/follow-take';
import { dubLine } from './row-fixture';

const lines = [dubLine()];

/** The page, its stage and the line's row, following the take as the dub screen does. */
function Page({ phase, clipTime }: { phase: Signal<TakePhase>; clipTime: Signal<number> }) {
  const page = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  useFollowTake({ page, stage, phase, clipTime, lines });
  return (
    <div ref={page} data-testid="page">
      <div ref={stage} data-testid="stage" />
      <ol>
        <li data-testid="line-l1" />
      </ol>
    </div>
  );
}

/** Boxes the layout would give: the stage 120 px down the viewport, the row far below the fold. */
const BOXES: Record<string, Partial<DOMRect>> = {
  stage: { top: 120, bottom: 400, height: 280 },
  'line-l1': { top: 2000, bottom: 2060, height: 60 },
};

let frames: Map<number, FrameRequestCallback>;
let reads: string[];
let scrolls: ScrollToOptions[];

beforeEach(() => {
  frames = new Map();
  reads = [];
  scrolls = [];
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    frames.set(next, cb);
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const id = this.getAttribute('data-testid') ?? '';
    reads.push(id);
    return { top: 0, bottom: 0, height: 0, left: 0, right: 0, width: 0, x: 0, y: 0, ...BOXES[id] } as DOMRect;
  });
  vi.spyOn(window, 'scrollBy').mockImplementation(((options: ScrollToOptions) => {
    scrolls.push(options);
  }) as typeof window.scrollBy);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Runs the callbacks of the next frame, as the browser does before it paints. */
function frame(): void {
  const due = [...frames.values()];
  frames.clear();
  for (const cb of due) cb(performance.now());
}

describe('useFollowTake', () => {
  it('reads no layout in the task that changes the phase: the stage is brought to the top in the next frame', () => {
    const phase = signal<TakePhase>('idle');
    const clipTime = signal(0);
    const { getByTestId } = render(<Page phase={phase} clipTime={clipTime} />);

    act(() => {
      phase.value = 'preparing';
    });
    expect(reads, 'the click that starts a take lays nothing out').toEqual([]);
    expect(getByTestId('page').hasAttribute('data-taking')).toBe(false);

    act(() => {
      phase.value = 'count-in';
    });
    expect(getByTestId('page').hasAttribute('data-taking')).toBe(true);
    expect(reads, 'the count-in lays nothing out in its own task').toEqual([]);
    expect(scrolls).toEqual([]);

    frame();
    expect(reads).toEqual(['stage']);
    expect(scrolls).toEqual([{ top: 120, behavior: 'auto' }]);

    act(() => {
      phase.value = 'recording';
    });
    frame();
    expect(scrolls, 'the stage is brought up once per take').toHaveLength(1);
  });

  it('follows the line being spoken in the next frame, not in the clip time update', () => {
    const phase = signal<TakePhase>('recording');
    const clipTime = signal(0);
    render(<Page phase={phase} clipTime={clipTime} />);
    frame();
    reads.length = 0;
    scrolls.length = 0;

    act(() => {
      clipTime.value = 1.2;
    });
    expect(reads, 'the time update lays nothing out').toEqual([]);

    frame();
    expect(reads).toEqual(['stage', 'line-l1']);
    // The row's top brought to just under the stage's bottom (400 px), 8 px apart.
    expect(scrolls).toEqual([{ top: 2000 - 400 - 8, behavior: expect.any(String) }]);

    act(() => {
      clipTime.value = 1.5;
    });
    frame();
    expect(scrolls, 'the same line is not followed twice').toHaveLength(1);
  });

  it('a take that ends before its frame leaves the page where it is', () => {
    const phase = signal<TakePhase>('idle');
    const clipTime = signal(0);
    const { getByTestId } = render(<Page phase={phase} clipTime={clipTime} />);

    act(() => {
      phase.value = 'count-in';
      clipTime.value = 1.2;
    });
    act(() => {
      phase.value = 'idle';
    });
    frame();
    expect(scrolls).toEqual([]);
    expect(getByTestId('page').hasAttribute('data-taking')).toBe(false);
  });
});
