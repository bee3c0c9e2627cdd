/**
 * Ring buffers of samples (the live pitch frame, the window slicer's look-back). Pure.
 */

/**
 * Writes the last `ring.length` (at most) of `samples[0..length)` into `ring`, the first of them at
 * ring index `at` (wrapping), in at most two block copies instead of one modulo per sample.
 * Returns the ring index after the last sample written, where the stream continues.
 */
export function writeRing(ring: Float32Array, at: number, samples: Float32Array, length: number): number {
  const size = ring.length;
  if (size === 0) return 0;
  // Samples that would be overwritten within this same call are skipped.
  let from = Math.max(0, length - size);
  let to = (at + from) % size;
  while (from < length) {
    const run = Math.min(length - from, size - to);
    ring.set(samples.subarray(from, from + run), to);
    from += run;
    to = (to + run) % size;
  }
  return to;
}
