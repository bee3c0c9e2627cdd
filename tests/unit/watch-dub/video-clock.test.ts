import { describe, expect, it } from 'vitest';
import { VideoClock } from '../../../src/app/features/watch-dub/video-clock';
import { seededRandom } from '../../../scripts/lib/seeded';

/**
 * Frames as headless Chromium presents a muted 15 fps clip on a loaded machine (docs/architecture.md,
 * "Watch my dub"): the media clock runs at `pace` against the audio clock and skips ahead by what it
 * lost every `skipEvery` seconds (`phase` shifts where); each frame is shown at the first 60 Hz vsync
 * its time has come, and reported then.
 */
function loadedPicture(pace: number, skipEvery: number, seconds: number, phase = 0) {
  const clock = (c: number) => pace * c + (1 - pace) * Math.floor((c + phase) / skipEvery) * skipEvery;
  const frames: { c: number; m: number }[] = [];
  for (let k = 0; k <= seconds * 60; k++) {
    const c = k / 60;
    const m = Math.floor(clock(c) * 15 + 1e-9) / 15;
    if (m !== frames[frames.length - 1]?.m) frames.push({ c, m });
  }
  return { frames, clock, sinceSkip: (c: number) => (c + phase) % skipEvery };
}

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

  it('places a take 0.3 s ahead within 10 ms of a picture that runs 6 % slow between 120 ms skips', () => {
    // A least-squares line over the last 2 s straddles a skip, reads the catch-up as speed (rates of
    // 0.985–1.03 here) and misses by up to 43 ms; the frames since the skip give the pace.
    const horizon = 0.3;
    let worst = 0;
    const rates: number[] = [];
    for (let phase = 0; phase < 2; phase += 0.05) {
      const { frames, clock: truth, sinceSkip } = loadedPicture(0.94, 2, 8, phase);
      const clock = new VideoClock();
      for (const f of frames) {
        clock.add(f.c, f.m);
        // From 3 s on, where the frames since the last skip settled the offset and the take is due
        // before the next skip (across one the picture itself jumps).
        const s = sinceSkip(f.c);
        if (f.c < 3 || s < 0.5 || s + horizon >= 2) continue;
        // A frame is shown up to a vsync after its time: half a vsync behind the clock, on average.
        const heard = truth(f.c + horizon) - 0.94 / 120;
        worst = Math.max(worst, Math.abs(clock.clipAt(f.c + horizon) - heard));
        rates.push(clock.rate);
      }
    }
    expect(rates.length).toBeGreaterThan(500);
    expect(Math.min(...rates)).toBeGreaterThan(0.92);
    expect(Math.max(...rates)).toBeLessThan(0.965);
    expect(worst).toBeLessThan(0.01);
  });

  it('reads the pace of a clip 17 % slow with frames up to ±40 ms off their slots', () => {
    const next = seededRandom(7);
    const clock = new VideoClock();
    const rates: number[] = [];
    for (let i = 0; i < 150; i++) {
      const m = i / 15;
      clock.add(m / 0.83 + (next() - 0.5) * 0.08, m);
      if (m / 0.83 > 3) rates.push(clock.rate);
    }
    expect(rates.length).toBeGreaterThan(50);
    for (const r of rates) expect(Math.abs(r - 0.83)).toBeLessThan(0.04);
  });

  it('reads 1 from a clip that keeps time with ±4 ms of presentation jitter, from its first frames', () => {
    const next = seededRandom(3);
    const clock = new VideoClock();
    for (let i = 0; i < 120; i++) {
      clock.add(i / 15 + (next() - 0.5) * 0.008, i / 15);
      expect(Math.abs(clock.rate - 1), `rate at frame ${i}`).toBeLessThan(0.02);
    }
  });
});
