import { describe, expect, it } from 'vitest';
import {
  type ClosedWindow,
  planWindows,
  WindowError,
  type WindowSpec,
  WindowSlicer,
} from '../../../src/audio/dsp/windows';

/** Stream whose sample i has value i, so every cut can be checked sample by sample. */
function ramp(from: number, length: number): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = from + i;
  return out;
}

function feed(slicer: WindowSlicer, total: number, chunkSizes: () => number): void {
  for (let at = slicer.position; at < total; ) {
    const n = Math.min(total - at, chunkSizes());
    slicer.push(ramp(at, n));
    at += n;
  }
}

function expectExact(w: ClosedWindow): void {
  expect(w.samples.length).toBe(w.end - w.start);
  for (let i = 0; i < w.samples.length; i++) {
    if (w.samples[i] !== w.start + i) throw new Error(`${w.id}[${i}] = ${w.samples[i]}, want ${w.start + i}`);
  }
}

const WINDOWS: WindowSpec[] = [
  { id: 'a', start: 0, end: 100 }, // starts at the first sample
  { id: 'b', start: 90, end: 250 }, // overlaps a (margins)
  { id: 'c', start: 100, end: 101 }, // one sample, exactly where a ends
  { id: 'd', start: 240, end: 1000 }, // overlaps b, ends exactly at the end of the stream
  { id: 'e', start: 300, end: 310 }, // inside d
];

describe('WindowSlicer', () => {
  it.each([1, 7, 99, 100, 101, 128, 1000])('cuts exact windows with chunks of %d samples', (size) => {
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer(WINDOWS, (w) => closed.push(w));
    feed(slicer, 1000, () => size);
    expect(slicer.finish()).toEqual([]);
    expect(closed.map((w) => w.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const w of closed) {
      expect(w.complete).toBe(true);
      expectExact(w);
    }
  });

  it('cuts exactly with random chunk boundaries', () => {
    let seed = 11;
    const sizes = () => {
      seed = (seed * 48271) % 2147483647;
      return 1 + (seed % 257);
    };
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer(WINDOWS, (w) => closed.push(w));
    feed(slicer, 1000, sizes);
    closed.forEach(expectExact);
    expect(closed).toHaveLength(5);
  });

  it('hands each window out as soon as the stream passes its end', () => {
    const order: string[] = [];
    const slicer = new WindowSlicer(WINDOWS, (w) => order.push(`${w.id}@${slicer.position}`));
    slicer.push(ramp(0, 100));
    expect(order).toEqual(['a@100']);
    slicer.push(ramp(100, 1));
    expect(order).toEqual(['a@100', 'c@101']);
  });

  it('holds only the windows that are open (a long take stays small)', () => {
    const many: WindowSpec[] = Array.from({ length: 600 }, (_, i) => ({
      id: `w${i}`,
      start: i * 16000,
      end: i * 16000 + 20000, // each overlaps the next by 0.25 s at 16 kHz
    }));
    let maxOpen = 0;
    let count = 0;
    const slicer = new WindowSlicer(many, () => count++);
    const chunk = new Float32Array(2048);
    for (let at = 0; at < 600 * 16000 + 20000; at += chunk.length) {
      slicer.push(chunk);
      maxOpen = Math.max(maxOpen, slicer.openCount);
    }
    expect(count).toBe(600);
    expect(maxOpen).toBe(2);
  });

  it('on finish hands out the open window truncated and reports windows never reached', () => {
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer(WINDOWS, (w) => closed.push(w));
    slicer.push(ramp(0, 305));
    const skipped = slicer.finish();
    const byId = Object.fromEntries(closed.map((w) => [w.id, w]));
    expect(byId.d.complete).toBe(false);
    expect(byId.d.samples.length).toBe(305 - 240);
    expect(byId.d.samples[0]).toBe(240);
    expect(byId.e.samples.length).toBe(5);
    expect(skipped).toEqual([]);
    const later = new WindowSlicer([{ id: 'z', start: 50, end: 60 }], () => {});
    later.push(ramp(0, 10));
    expect(later.finish().map((w) => w.id)).toEqual(['z']);
  });

  it('starts mid-stream; a window that ended before the first sample comes out silent and incomplete', () => {
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer(
      [
        { id: 'past', start: 0, end: 10 },
        { id: 'now', start: 500, end: 520 },
      ],
      (w) => closed.push(w),
      400,
    );
    feed(slicer, 600, () => 33);
    expect(closed[0]).toMatchObject({ id: 'past', complete: false });
    expect(closed[0].samples.every((v) => v === 0)).toBe(true);
    expectExact(closed[1]);
  });

  it('back-fills a window added after its start from the look-back ring, exactly', () => {
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer([], (w) => closed.push(w), 0, 300);
    feed(slicer, 1000, () => 97);
    slicer.add([
      { id: 'late', start: 800, end: 1100 }, // 200 samples already streamed, still in the ring
      { id: 'past', start: 750, end: 900 }, // already over: closed at once
    ]);
    expect(closed.map((w) => w.id)).toEqual(['past']);
    feed(slicer, 1200, () => 64);
    expect(closed.map((w) => w.id)).toEqual(['past', 'late']);
    closed.forEach(expectExact);
    expect(closed.every((w) => w.complete)).toBe(true);
  });

  it('marks a window incomplete when its start is older than the look-back ring', () => {
    const closed: ClosedWindow[] = [];
    const slicer = new WindowSlicer([], (w) => closed.push(w), 0, 100);
    feed(slicer, 1000, () => 1000);
    slicer.add([{ id: 'old', start: 850, end: 1050 }]);
    feed(slicer, 1100, () => 10);
    expect(closed[0].complete).toBe(false);
    expect(closed[0].samples[0]).toBe(0); // 850…899 were gone: silence, never someone else's audio
    expect(closed[0].samples[50]).toBe(900);
    expect(closed[0].samples[199]).toBe(1049);
  });

  describe('moving windows mid-stream (the clip re-anchored)', () => {
    /**
     * Streams `specs` to `at` in chunks of `chunk`, moves them to `moves` (the clip moved at stream
     * index `from`), streams on to `to`; returns each window handed out as [id, start, end, complete]
     * and the windows themselves.
     */
    function moveAt(
      specs: WindowSpec[],
      moves: WindowSpec[],
      opts: { at: number; to: number; chunk: number; ring: number; from?: number },
    ) {
      const closed: ClosedWindow[] = [];
      const slicer = new WindowSlicer(specs, (w) => closed.push(w), 0, opts.ring);
      feed(slicer, opts.at, () => opts.chunk);
      slicer.move(moves, opts.from);
      feed(slicer, opts.to, () => opts.chunk);
      return { closed, ranges: closed.map((w) => [w.id, w.start, w.end, w.complete]) };
    }

    it('moves a window still ahead, and cuts it exactly where it now lies', () => {
      const specs = [{ id: 'x', start: 500, end: 700 }];
      const moves = [{ id: 'x', start: 900, end: 1150 }];
      // Its old end passed: it did not close there.
      expect(moveAt(specs, moves, { at: 300, to: 1000, chunk: 37, ring: 300 }).closed).toEqual([]);
      const { closed, ranges } = moveAt(specs, moves, { at: 300, to: 1200, chunk: 37, ring: 300 });
      expect(ranges).toEqual([['x', 900, 1150, true]]);
      expectExact(closed[0]);
    });

    it('keeps an open window’s start and what it holds, and closes it at its new end if later, never earlier', () => {
      const { closed } = moveAt(
        [
          { id: 'later', start: 400, end: 700, lineEnd: 650 },
          { id: 'earlier', start: 450, end: 800, lineEnd: 750 },
        ],
        [
          { id: 'later', start: 500, end: 900, lineEnd: 850 }, // the clip stood still: the line runs on
          { id: 'earlier', start: 350, end: 650, lineEnd: 600 }, // the clip jumped ahead
        ],
        { at: 600, to: 1000, chunk: 53, ring: 300 },
      );
      expect(closed.map((w) => [w.id, w.start, w.end, w.lineEnd, w.complete])).toEqual([
        ['earlier', 450, 800, 750, true],
        ['later', 400, 900, 850, true],
      ]);
      closed.forEach(expectExact);
    });

    it('cuts a window that opened after the clip moved again from its new start, from the ring', () => {
      // The clip stood still from stream index 500: 'before' keeps its start, 'after' starts anew.
      const later = moveAt(
        [
          { id: 'before', start: 300, end: 700 },
          { id: 'after', start: 520, end: 800 },
        ],
        [
          { id: 'before', start: 400, end: 800 },
          { id: 'after', start: 620, end: 900 },
        ],
        { at: 600, to: 1000, chunk: 53, ring: 300, from: 500 },
      );
      expect(later.ranges).toEqual([
        ['before', 300, 800, true],
        ['after', 620, 900, true],
      ]);
      later.closed.forEach(expectExact);
      // Moved back into what the ring still holds: cut exactly from there.
      const earlier = moveAt([{ id: 'x', start: 520, end: 800 }], [{ id: 'x', start: 420, end: 700 }], {
        at: 600,
        to: 1000,
        chunk: 53,
        ring: 300,
        from: 500,
      });
      expect(earlier.ranges).toEqual([['x', 420, 700, true]]);
      earlier.closed.forEach(expectExact);
    });

    it('does not cut an open window short when its new end has passed; leaves closed windows alone', () => {
      const { closed, ranges } = moveAt(
        [
          { id: 'done', start: 0, end: 100 },
          { id: 'open', start: 200, end: 800 },
        ],
        [
          { id: 'done', start: 50, end: 150 },
          { id: 'open', start: 150, end: 450 },
        ],
        { at: 500, to: 800, chunk: 100, ring: 400 },
      );
      expect(ranges).toEqual([
        ['done', 0, 100, true],
        ['open', 200, 800, true],
      ]);
      closed.forEach(expectExact);
    });

    it('back-fills a window still ahead that moves into the past from the look-back ring', () => {
      // The clip jumped ahead of the capture clock.
      const { closed, ranges } = moveAt(
        [{ id: 'x', start: 1100, end: 1300 }],
        [{ id: 'x', start: 900, end: 1100 }],
        { at: 1000, to: 1100, chunk: 100, ring: 300 },
      );
      expect(ranges).toEqual([['x', 900, 1100, true]]);
      expectExact(closed[0]);
    });
  });

  it('rejects empty or fractional windows', () => {
    expect(() => new WindowSlicer([{ id: 'x', start: 5, end: 5 }], () => {})).toThrow(WindowError);
    expect(() => new WindowSlicer([{ id: 'x', start: 0.5, end: 5 }], () => {})).toThrow(/bad range/);
  });
});

describe('WindowSlicer closing at silence', () => {
  // Values >= 1 are "voice"; the test's endsEarly hears silence when the last 10 samples are all 0.
  const endsEarly = (samples: Float32Array, filled: number) =>
    filled >= 10 && samples.subarray(filled - 10, filled).every((v) => v === 0);
  const stream = (voiceUntil: number, length: number) =>
    Float32Array.from({ length }, (_, i) => (i < voiceUntil ? 1 + i : 0));

  it('closes a window past its line end as soon as the speaker has stopped, complete and exact', () => {
    const closed: { id: string; at: number; w: ClosedWindow }[] = [];
    const slicer = new WindowSlicer(
      [{ id: 'a', start: 0, end: 200, lineEnd: 150 }],
      (w) => closed.push({ id: w.id, at: slicer.position, w }),
      0,
      0,
      endsEarly,
    );
    // Voice stops at 120, before the line end: the window closes at the first push past 150.
    const audio = stream(120, 200);
    for (let at = 0; at < 200; at += 20) slicer.push(audio.subarray(at, at + 20));
    expect(closed.map((c) => [c.id, c.at])).toEqual([['a', 160]]);
    expect(closed[0].w.complete).toBe(true);
    expect([...closed[0].w.samples]).toEqual([...audio.subarray(0, 160)]);
  });

  it('keeps the whole margin while the speaker runs over the line end', () => {
    const closed: { at: number; length: number }[] = [];
    const slicer = new WindowSlicer(
      [{ id: 'a', start: 0, end: 200, lineEnd: 150 }],
      (w) => closed.push({ at: slicer.position, length: w.samples.length }),
      0,
      0,
      endsEarly,
    );
    // Voice runs to 185: silence is heard at 195 (10 samples), so the window closes there, early.
    const late = stream(185, 200);
    for (let at = 0; at < 200; at += 5) slicer.push(late.subarray(at, at + 5));
    expect(closed).toEqual([{ at: 195, length: 195 }]);

    // Voice to the very end: the window waits for its planned end.
    const closedFull: number[] = [];
    const full = new WindowSlicer(
      [{ id: 'b', start: 0, end: 200, lineEnd: 150 }],
      (w) => closedFull.push(w.samples.length),
      0,
      0,
      endsEarly,
    );
    const voice = stream(200, 200);
    for (let at = 0; at < 200; at += 5) full.push(voice.subarray(at, at + 5));
    expect(closedFull).toEqual([200]);
  });

  it('never closes before the line end, however silent, nor without a line end', () => {
    const closed: { id: string; at: number }[] = [];
    const slicer = new WindowSlicer(
      [
        { id: 'quiet', start: 0, end: 200, lineEnd: 150 },
        { id: 'no-line-end', start: 0, end: 180 },
      ],
      (w) => closed.push({ id: w.id, at: slicer.position }),
      0,
      0,
      endsEarly,
    );
    const silence = new Float32Array(200);
    for (let at = 0; at < 200; at += 10) slicer.push(silence.subarray(at, at + 10));
    expect(closed).toEqual([
      { id: 'quiet', at: 150 },
      { id: 'no-line-end', at: 180 },
    ]);
  });
});

describe('planWindows', () => {
  const at16k = (s: number) => s * 16000;

  it('widens each subtitle by the margin, clamps at the first sample and sorts by start', () => {
    const plan = planWindows(
      [
        { id: '2', startSeconds: 3, endSeconds: 4.5 },
        { id: '1', startSeconds: 0.1, endSeconds: 2.9 },
      ],
      at16k,
      { marginSeconds: 0.25 },
    );
    expect(plan).toEqual([
      { id: '1', start: 0, end: 50400, lineEnd: 46400 },
      { id: '2', start: 44000, end: 76000, lineEnd: 72000 },
    ]);
  });

  it('rejects a subtitle that ends before it starts', () => {
    expect(() =>
      planWindows([{ id: 'bad', startSeconds: 5, endSeconds: 4 }], at16k, { marginSeconds: 0 }),
    ).toThrow(/Subtitle bad ends/);
  });
});
