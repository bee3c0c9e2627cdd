/**
 * An AudioContext's clock against the page's, for the recorder's anchor and Watch my dub.
 *
 * Where the engine answers them safely, getOutputTimestamp() (context time heard at the speaker and
 * the performance time it was heard) and outputLatency (render clock → speaker). In Gecko, asking
 * them can leave the page's main thread waiting for good: Firefox ESR 153 stopped answering
 * in 5 of 8 scene takes after the cinema had played the clip, its content process idle in a native
 * wait under the page's script, and in none of 16 with this clock (tests/engines/journeys.ts, part two).
 * There the clock is the render clock (currentTime) read beside performance.now(): early by the
 * output latency and late by up to a render block, both within a window's margins
 * (src/audio/dsp/windows.ts).
 */

export interface ContextTimestamp {
  contextTime: number;
  performanceTime: number;
}

/** Whether this engine's latency queries may block the main thread (Gecko). */
export function latencyQueriesBlock(userAgent: string = navigator.userAgent): boolean {
  return /\bGecko\/\d/.test(userAgent) && /\bFirefox\//.test(userAgent);
}

/** The context time heard now and the performance time of that reading. */
export function outputTimestamp(ctx: AudioContext): ContextTimestamp {
  if (latencyQueriesBlock()) return { contextTime: ctx.currentTime, performanceTime: performance.now() };
  const ts = ctx.getOutputTimestamp();
  return {
    contextTime: ts.contextTime ?? ctx.currentTime,
    performanceTime: ts.performanceTime ?? performance.now(),
  };
}

/** Render clock → speaker, in seconds; 0 where asking could block (the render clock is the reading there). */
export function outputLatency(ctx: AudioContext): number {
  return latencyQueriesBlock() ? 0 : ctx.outputLatency || 0;
}
