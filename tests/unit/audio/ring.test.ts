import { expect, it } from 'vitest';
import { writeRing } from '../../../src/audio/dsp/ring';
import { noise } from './signals';

it('writes a stream into a ring exactly as one sample at a time would, for every length and start', () => {
  const size = 37;
  const fast = new Float32Array(size);
  const slow = new Float32Array(size);
  const stream = noise(5000, 6);
  let at = 0;
  let pos = 0;
  let seed = 9;
  let pushes = 0;
  while (pos < stream.length) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    // 0 to 99 samples: empty pushes, short ones, and ones longer than the ring (only the last 37 stay).
    const n = Math.min(stream.length - pos, seed % 100);
    const chunk = stream.subarray(pos, pos + n + 3); // `length` may be shorter than the array
    for (let i = 0; i < n; i++) slow[(pos + i) % size] = chunk[i];
    at = writeRing(fast, at, chunk, n);
    pos += n;
    pushes++;
    expect(at).toBe(pos % size);
    expect(Array.from(fast)).toEqual(Array.from(slow));
  }
  expect(pushes).toBeGreaterThan(50);
});

it('does nothing with an empty ring', () => {
  expect(writeRing(new Float32Array(0), 0, noise(10), 10)).toBe(0);
});
