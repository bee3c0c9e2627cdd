import { describe, expect, it } from 'vitest';
import { RunningPitchMedian } from '../../../src/audio/dsp/pitch-median';
import { guideLine, PitchRing } from '../../../src/app/features/dub/pitch-guide-data';
import type { SubtitleLine } from '../../../src/app/lib/movie-detail';

const line = (id: string, start: number, end: number) =>
  ({ id, startTime_m: start, endTime_m: end }) as unknown as SubtitleLine;

describe('pitch guide data', () => {
  it("the learner's running median: semitones re their own median, whatever their register", () => {
    const low = new RunningPitchMedian();
    const high = new RunningPitchMedian();
    for (const hz of [100, null, 110, 120]) low.add(hz);
    for (const hz of [200, null, 220, 240]) high.add(hz);
    expect(low.medianHz()).toBeCloseTo(110, 0);
    // An octave apart, the same melody reads the same.
    expect(low.semitones(120)).toBeCloseTo(high.semitones(240) as number, 1);
    expect(low.semitones(110)).toBeCloseTo(0, 1);
    expect(low.semitones(null)).toBeNull();
    expect(new RunningPitchMedian().semitones(100)).toBeNull();
  });

  it('the ring keeps the last points by clip time, unvoiced as gaps, and says when it changed', () => {
    const ring = new PitchRing(4);
    for (let i = 0; i < 6; i++) ring.push(i, i === 4 ? null : i);
    const seen: [number, number][] = [];
    ring.forEachBetween(0, 10, (t, st) => seen.push([t, st]));
    expect(seen.map(([t]) => t)).toEqual([2, 3, 4, 5]);
    expect(Number.isNaN(seen[2][1])).toBe(true);
    const v = ring.version;
    ring.clear();
    expect(ring.version).toBeGreaterThan(v);
    ring.forEachBetween(0, 10, () => {
      throw new Error('empty after clear');
    });
  });

  it('shows the line being said, else the next one, else the last', () => {
    const lines = [line('a', 1, 2), line('b', 4, 5)];
    expect(guideLine(lines, 1.5)?.id).toBe('a');
    expect(guideLine(lines, 2.4)?.id).toBe('a'); // within the pad after a
    expect(guideLine(lines, 3)?.id).toBe('b');
    expect(guideLine(lines, 9)?.id).toBe('b');
    expect(guideLine([], 1)).toBeNull();
  });

  it('holds the line just said while the clip is paused shortly after its take, even inside the next pad', () => {
    const lines = [line('a', 1, 2), line('b', 2.8, 4)];
    expect(guideLine(lines, 2.6)?.id).toBe('b'); // inside b's pad
    const held = { voicedAt: 1.9, endedAt: 2.5 };
    expect(guideLine(lines, 2.6, held)?.id).toBe('a'); // the take's last voiced point was in a
    expect(guideLine(lines, 3.6, held)?.id).toBe('b'); // too long after the take: where the clip is
    expect(guideLine(lines, 1.5, held)?.id).toBe('a'); // sought back before it: where the clip is
  });

  it('holds it when the learner fell silent early: the pause follows the end of the take, not their voice', () => {
    const lines = [line('a', 1, 2.5), line('b', 3, 4)];
    // Voiced up to 1.4 s, recording on in silence until the window closed at 3.1 s, paused at 3.2 s.
    expect(guideLine(lines, 3.2, { voicedAt: 1.4, endedAt: 3.1 })?.id).toBe('a');
  });

  it('tells the newest voiced point, or none', () => {
    const ring = new PitchRing(3);
    expect(ring.latestVoiced).toBeNull();
    for (const t of [1, 2, 3]) ring.push(t, 0);
    ring.push(4, null); // unvoiced points after the speech (the worker goes on after the take)
    expect(ring.latestVoiced).toBe(3);
    expect(ring.held()).toEqual({ voicedAt: 3, endedAt: 4 });
    ring.clear();
    expect(ring.latestVoiced).toBeNull();
    expect(ring.held()).toBeNull();
  });
});
