import { describe, expect, it } from 'vitest';
import { startOf, takesFrom } from '../../../src/app/features/watch-dub/mix-plan';
import { VideoClock } from '../../../src/app/features/watch-dub/video-clock';

// A seek in "watch my dub": the takes still ahead are planned again from the new clip time, the one
// under the playhead starts part way in, and the clock after the seek is the frames after it only.
const takes = [
  { lineId: 'a', url: 'blob:a', clipStart: 1 },
  { lineId: 'b', url: 'blob:b', clipStart: 5 },
  { lineId: 'c', url: 'blob:c', clipStart: 9 },
];
const durations = new Map([
  ['a', 2],
  ['b', 2],
  ['c', 2],
]);

describe('watch my dub: scheduling after a seek', () => {
  it('keeps the takes that end after the new position, the one under the playhead too', () => {
    expect(takesFrom(takes, durations, 0).map((t) => t.lineId)).toEqual(['a', 'b', 'c']);
    expect(takesFrom(takes, durations, 5.5).map((t) => t.lineId)).toEqual(['b', 'c']);
    expect(takesFrom(takes, durations, 7).map((t) => t.lineId)).toEqual(['c']);
    // Back again: every take from there is heard anew.
    expect(takesFrom(takes, durations, 0.5).map((t) => t.lineId)).toEqual(['a', 'b', 'c']);
    expect(takesFrom(takes, new Map([['c', 2]]), 0).map((t) => t.lineId)).toEqual(['c']);
  });

  it('starts the take under the playhead at once from its offset, and the next at its window', () => {
    const clock = new VideoClock();
    // Playing from 0 at context time 10; then a seek to 5.5 shown from context time 13.
    for (let i = 0; i < 30; i++) clock.add(10 + i / 15, i / 15);
    clock.reset();
    for (let i = 0; i < 3; i++) clock.add(13 + i / 15, 5.5 + i / 15);
    const now = 13 + 2 / 15;
    const [b, c] = takesFrom(takes, durations, 5.5);
    const underPlayhead = startOf(clock.contextAt(b.clipStart), now, 2);
    expect(underPlayhead?.at).toBeCloseTo(now, 9);
    expect(underPlayhead?.offset).toBeCloseTo(0.5 + 2 / 15, 9);
    const next = startOf(clock.contextAt(c.clipStart), now, 2);
    expect(next?.at).toBeCloseTo(13 + 3.5, 9);
    expect(next?.offset).toBe(0);
    // A take already over by the time it would start is not started.
    expect(startOf(clock.contextAt(1), now, 2)).toBeNull();
  });

  it('a clock that is not reset still reads a short forward seek as the old run', () => {
    // Why the player resets it: a seek 0.5 s ahead is within the jump the clock tolerates, so the
    // fit over old and new frames would put the take under the playhead off by most of the seek.
    const clock = new VideoClock();
    for (let i = 0; i < 30; i++) clock.add(10 + i / 15, 5 + i / 15);
    clock.add(12, 7.5);
    expect(Math.abs(clock.clipAt(12) - 7.5)).toBeGreaterThan(0.1);
    clock.reset();
    clock.add(12, 7.5);
    expect(clock.clipAt(12)).toBeCloseTo(7.5, 9);
  });
});
