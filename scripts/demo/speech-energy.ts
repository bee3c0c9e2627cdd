/**
 * Energy measures used to check that subtitle windows hold speech and the gaps between them are
 * near silence (the demo-content test and `measure-demo.ts` share them).
 */
export interface Window {
  startMs: number;
  endMs: number;
}

/** RMS level in dBFS of [fromMs, toMs) of mono PCM at `rate`. */
export function rmsDb(samples: Float32Array, rate: number, fromMs: number, toMs: number): number {
  const a = Math.max(0, Math.round((fromMs / 1000) * rate));
  const b = Math.min(samples.length, Math.round((toMs / 1000) * rate));
  if (b <= a) throw new Error(`empty window ${fromMs}–${toMs} ms`);
  let sum = 0;
  for (let i = a; i < b; i++) sum += samples[i] * samples[i];
  return 10 * Math.log10(sum / (b - a) + 1e-12);
}

/** Loudest 20 ms frame (10 ms hop) inside a window: is there voice here at all. */
export function peakFrameDb(samples: Float32Array, rate: number, fromMs: number, toMs: number): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let t = fromMs; t + 20 <= toMs; t += 10) best = Math.max(best, rmsDb(samples, rate, t, t + 20));
  return best;
}

/**
 * The stretches between speech windows (and before the first and after the last), each shrunk by
 * `guardMs` next to a window so a faded margin does not count as noise. Stretches under 50 ms are dropped.
 */
export function gapsBetween(windows: Window[], totalMs: number, guardMs: number): Window[] {
  const edges = [{ startMs: 0, endMs: 0 }, ...windows, { startMs: totalMs, endMs: totalMs }];
  const gaps: Window[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const startMs = edges[i].endMs + (i === 0 ? 0 : guardMs);
    const endMs = edges[i + 1].startMs - (i + 1 === edges.length - 1 ? 0 : guardMs);
    if (endMs - startMs >= 50) gaps.push({ startMs, endMs });
  }
  return gaps;
}

export interface WindowReport {
  /** RMS inside each window. */
  speechDb: number[];
  /** Loudest 20 ms frame in the first and last `edgeMs` of each window. */
  onsetDb: number[];
  offsetDb: number[];
  gaps: Window[];
  gapDb: number[];
}

export function measureWindows(
  samples: Float32Array,
  rate: number,
  windows: Window[],
  options: { guardMs: number; edgeMs: number },
): WindowReport {
  const totalMs = (samples.length / rate) * 1000;
  const gaps = gapsBetween(windows, totalMs, options.guardMs);
  return {
    speechDb: windows.map((w) => rmsDb(samples, rate, w.startMs, w.endMs)),
    onsetDb: windows.map((w) => peakFrameDb(samples, rate, w.startMs, w.startMs + options.edgeMs)),
    offsetDb: windows.map((w) => peakFrameDb(samples, rate, w.endMs - options.edgeMs, w.endMs)),
    gaps,
    gapDb: gaps.map((g) => rmsDb(samples, rate, g.startMs, g.endMs)),
  };
}
