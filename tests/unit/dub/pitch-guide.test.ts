import { describe, expect, it } from 'vitest';
import { guideLine, learnerOnLine, PitchRing } from '../../../src/app/features/dub/pitch-guide-data';
import type { SubtitleLine } from '../../../src/app/lib/movie-detail';
import { TakePipeline } from '../../../src/workers/take-pipeline';
import { sine } from '../audio/signals';

const line = (id: string, start: number, end: number) =>
  ({ id, startTime_m: start, endTime_m: end }) as unknown as SubtitleLine;

describe('pitch guide data', () => {
  it("draws a line's learner points on their own median on the line, the same in a scene take as in a retake of it", () => {
    // The encoder worker's live pitch (TakePipeline, 10 Hz) stamped with the clip time, as DubSession
    // does: a scene whose first line is said an octave below the second, then the second line alone.
    const RATE = 48_000;
    const a = line('a', 0.5, 1.5);
    const b = line('b', 2, 3);
    const take = (parts: { from: number; to: number; hz: number }[], seconds: number) => {
      const ring = new PitchRing();
      const pipeline = new TakePipeline(
        { takeId: 't', marginSeconds: 0.25 },
        () => {},
        (s) => ring.push(s.capturedSeconds, s.pitchHz),
      );
      const audio = new Float32Array(seconds * RATE);
      for (const p of parts) {
        const tone = sine(p.hz, RATE, Math.round((p.to - p.from) * RATE), 0.3);
        audio.set(tone, Math.round(p.from * RATE));
      }
      for (let at = 0; at < audio.length; at += 4800)
        pipeline.ingest(audio.subarray(at, at + 4800), 4800, at, RATE);
      return ring;
    };
    // Line b rises: its first half at 200 Hz, its second half three semitones up.
    const lineB = [
      { from: 2, to: 2.5, hz: 200 },
      { from: 2.5, to: 3, hz: 200 * 2 ** (3 / 12) },
    ];
    const scene = take([{ from: 0.5, to: 1.5, hz: 100 }, ...lineB], 4);
    const retake = take(lineB, 4);
    const sceneB = learnerOnLine(scene, b, 4);
    const retakeB = learnerOnLine(retake, b, 4);
    const voiced = (p: { semitones: number[] }) => p.semitones.filter((st) => !Number.isNaN(st));
    expect(voiced(sceneB).length).toBeGreaterThanOrEqual(8);
    // The same shape at the same height: from −3 to 0 or 0 to +3 semitones, not at the guide's
    // ±12 edge as when the reference was the whole take's median (100 Hz under line b's 200 Hz).
    expect(voiced(sceneB)).toEqual(voiced(retakeB));
    expect(Math.min(...voiced(sceneB))).toBeGreaterThan(-3.5);
    expect(Math.max(...voiced(sceneB))).toBeLessThan(3.5);
    expect(Math.max(...voiced(sceneB)) - Math.min(...voiced(sceneB))).toBeCloseTo(3, 0);
    // Line a in the scene on its own median too (line b's first point, in a's pad after it, reads
    // an octave up there); points up to the clip time only.
    const sceneA = learnerOnLine(scene, a, 4);
    const saidA = sceneA.semitones.filter((st, i) => sceneA.times[i] <= a.endTime_m && !Number.isNaN(st));
    expect(saidA.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...saidA.map(Math.abs))).toBeLessThan(0.5);
    expect(learnerOnLine(scene, b, 2.2).times.every((t) => t <= 2.2)).toBe(true);
  });

  it("repairs the live tracker's upward octave slip on the line, as the actor's contour is", () => {
    const ring = new PitchRing();
    const b = line('b', 1, 3);
    // 0.1 s apart, as the worker sends them; one point read an octave up.
    const hz = [200, 202, 205, 208, 420, 212, 215, 218, 220, 222];
    for (const [i, f] of hz.entries()) ring.push(1 + i * 0.1, f);
    const drawn = learnerOnLine(ring, b, 3).semitones;
    expect(drawn[4]).toBeCloseTo(0, 0); // 420 Hz read as 210 Hz, about the line's median
    expect(Math.max(...drawn.map(Math.abs))).toBeLessThan(3);
  });

  it('the ring keeps the last points by clip time, unvoiced as gaps, and says when it changed', () => {
    const ring = new PitchRing(4);
    for (let i = 0; i < 6; i++) ring.push(i, i === 4 ? null : 100 + i);
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
    for (const t of [1, 2, 3]) ring.push(t, 150);
    ring.push(4, null); // unvoiced points after the speech (the worker goes on after the take)
    expect(ring.latestVoiced).toBe(3);
    expect(ring.held()).toEqual({ voicedAt: 3, endedAt: 4 });
    ring.clear();
    expect(ring.latestVoiced).toBeNull();
    expect(ring.held()).toBeNull();
  });
});
