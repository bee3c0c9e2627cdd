import { describe, expect, it } from 'vitest';
import { VideoClock } from '../../../src/app/features/watch-dub/video-clock';

describe('watch my dub: the clip clock on the audio clock', () => {
  it('follows a clip that runs slow, and maps both ways', () => {
    const clock = new VideoClock();
    // 15 fps frames of a clip running at 0.8× real time, heard from context time 10 s.
    for (let i = 0; i < 40; i++) clock.add(10 + i / 15, 0.8 * (i / 15));
    expect(clock.rate).toBeCloseTo(0.8, 6);
    expect(clock.clipAt(13)).toBeCloseTo(2.4, 6);
    expect(clock.contextAt(2.4)).toBeCloseTo(13, 6);
  });

  it('moves to a jump of the clip within a few frames; one late frame does not move it', () => {
    const clock = new VideoClock();
    for (let i = 0; i < 30; i++) clock.add(i / 15, i / 15);
    clock.add(30 / 15 + 0.05, 30 / 15); // one frame shown 50 ms late
    expect(Math.abs(clock.clipAt(2.1) - 2.1)).toBeLessThan(0.005);
    // The clip skips 0.2 s ahead and stays there.
    for (let i = 31; i < 36; i++) clock.add(i / 15, i / 15 + 0.2);
    expect(clock.clipAt(36 / 15)).toBeCloseTo(36 / 15 + 0.2, 1);
  });

  it('starts afresh after a seek back', () => {
    const clock = new VideoClock();
    for (let i = 0; i < 10; i++) clock.add(i / 15, 5 + i / 15);
    clock.add(1, 0);
    expect(clock.clipAt(1)).toBeCloseTo(0, 6);
    expect(clock.rate).toBe(1);
  });
});
